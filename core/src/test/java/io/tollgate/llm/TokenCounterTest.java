package io.tollgate.llm;

import static org.assertj.core.api.Assertions.assertThat;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * Published counts: jtokkit's and tiktoken's README ("hello world" is 2 tokens), and OpenAI's
 * cookbook "How to count tokens with tiktoken" (section 5, comparing encodings).
 */
class TokenCounterTest {

  private final TokenCounter cl100k = TokenCounter.forModel("gpt-4");
  private final TokenCounter o200k = TokenCounter.forModel("gpt-4o");

  @ParameterizedTest(name = "\"{0}\" is {1} tokens in cl100k_base and {2} in o200k_base")
  @CsvSource(delimiter = '|', value = {
    "hello world                  | 2 | 2",
    "tiktoken is great!           | 6 | 6",
    "antidisestablishmentarianism | 6 | 6",
    "2 + 2 = 4                    | 7 | 7",
    "お誕生日おめでとう              | 9 | 8",
  })
  void countsAsTiktokenDoes(String text, int inCl100k, int inO200k) {
    assertThat(cl100k.count(text)).isEqualTo(inCl100k);
    assertThat(o200k.count(text)).isEqualTo(inO200k);
  }

  @Test
  void aLoneSurrogateIsCountedAsTheReplacementCharacterAUtf8EncoderSends() {
    // JSON may escape half a pair ("\ud800"); the encodings read well-formed text only
    String lone = "abc\ud800def\udc00";
    String sent = "abc\uFFFDdef\uFFFD";

    assertThat(TokenCounter.wellFormed(lone)).isEqualTo(sent);
    assertThat(TokenCounter.wellFormed("a\ud83d\ude00b")).isEqualTo("a\ud83d\ude00b"); // a pair stays
    assertThat(cl100k.count(lone)).isEqualTo(cl100k.count(sent));
    assertThat(o200k.countOnce(lone)).isEqualTo(o200k.countOnce(sent));
  }

  @Test
  void aLongTextCountedAgainFromMemoryHasTheTokenizersCountEachTime() {
    // 480 characters, remembered after the first count: 40 × ("hello", " world"), the last space 1 more
    String history = "hello world ".repeat(40);
    String otherHistory = "hello World ".repeat(40);
    Encoding jtokkit = Encodings.newDefaultEncodingRegistry().getEncoding(EncodingType.O200K_BASE);

    assertThat(o200k.count(history)).isEqualTo(jtokkit.countTokensOrdinary(history)).isEqualTo(81);
    assertThat(o200k.count(new String(history.toCharArray()))).isEqualTo(81);
    assertThat(o200k.count(otherHistory)).isEqualTo(jtokkit.countTokensOrdinary(otherHistory));
  }

  @Test
  void countsEachTextWithItsOwnVocabularyUntilLoadingPaysThenLoadsWithoutWaiting() throws Exception {
    Encoding whole = Encodings.newLazyEncodingRegistry().getEncoding(EncodingType.O200K_BASE);
    AtomicInteger loads = new AtomicInteger();
    CountDownLatch loadMayEnd = new CountDownLatch(1);
    TokenCounter counter = new TokenCounter(EncodingType.O200K_BASE, false, () -> {
      loads.incrementAndGet();
      try {
        loadMayEnd.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return whole;
    });

    TokenCounter.warmUp(List.of(counter)).get(20, TimeUnit.SECONDS);
    for (int text = 1; text < TokenCounter.LOAD_AFTER_TEXTS; text++) {
      String prompt = "Prompt number " + text + " says hello.";
      assertThat(counter.count(prompt)).as(prompt).isEqualTo(whole.countTokensOrdinary(prompt));
    }
    assertThat(counter.loadStarted()).as("after 31 texts").isFalse();
    assertThat(counter.count("hello world")).isEqualTo(2);
    assertThat(counter.loadStarted()).as("at the 32nd").isTrue();

    String prompt = "Say hello to the benchmark in five words. " + "And again, ".repeat(30);
    // on another thread, so that a count waiting for the held load fails here instead of hanging
    int whileLoading = CompletableFuture.supplyAsync(() -> counter.count(prompt))
        .get(20, TimeUnit.SECONDS);
    assertThat(whileLoading).isEqualTo(whole.countTokensOrdinary(prompt)).isEqualTo(100);
    assertThat(counter.loadedWhenItPaid()).as("the load, still held").isNotDone();
    loadMayEnd.countDown();
    counter.loadedWhenItPaid().get(20, TimeUnit.SECONDS);
    assertThat(counter.countOnce("Say hello to the benchmark in five words.")).isEqualTo(9);
    assertThat(loads).as("loads").hasValue(1);
  }

  @Test
  void charactersCountedWithoutTheEncodingLoadItToo() throws Exception {
    Encoding whole = Encodings.newLazyEncodingRegistry().getEncoding(EncodingType.O200K_BASE);
    TokenCounter counter = new TokenCounter(EncodingType.O200K_BASE, false, () -> whole);
    // 8,191 letters: 1,025 tokens, as jtokkit's whole encoding counts them
    String longText = "a".repeat((int) TokenCounter.LOAD_AFTER_CHARACTERS - 1);

    TokenCounter.warmUp(List.of(counter)).get(20, TimeUnit.SECONDS);
    assertThat(counter.loadStarted()).as("after the warm-up").isFalse();
    assertThat(counter.count(longText)).isEqualTo(whole.countTokensOrdinary(longText)).isEqualTo(1025);
    assertThat(counter.loadStarted()).as("after 8,191 characters").isFalse();
    assertThat(counter.count("b")).isEqualTo(1);
    assertThat(counter.loadStarted()).as("at the 8,192nd").isTrue();
    counter.loadedWhenItPaid().get(20, TimeUnit.SECONDS);
  }

  @Test
  void theAnthropicApproximationCountsBeforeCl100kBaseIsLoadedAndLoadsItOnceThatPays()
      throws Exception {
    Encoding whole = Encodings.newLazyEncodingRegistry().getEncoding(EncodingType.CL100K_BASE);
    AtomicInteger loads = new AtomicInteger();
    TokenCounter counter = new TokenCounter(EncodingType.CL100K_BASE, true, () -> {
      loads.incrementAndGet();
      return whole;
    });

    TokenCounter.warmUp(List.of(counter)).get(20, TimeUnit.SECONDS);
    assertThat(loads).as("loads after the warm-up").hasValue(0);
    for (int text = 1; text < TokenCounter.LOAD_AFTER_TEXTS; text++) {
      String prompt = "Prompt number " + text + " asks Claude for a haiku, politely.";
      assertThat(counter.count(prompt)).as(prompt).isEqualTo(whole.countTokensOrdinary(prompt));
    }
    assertThat(counter.loadStarted()).as("after 31 texts").isFalse();
    // 9 tokens in cl100k_base, × 1.2 rounded up
    assertThat(counter.scale(counter.count("Say hello to the benchmark in five words.")))
        .isEqualTo(11);
    assertThat(counter.loadStarted()).as("at the 32nd").isTrue();
    counter.loadedWhenItPaid().get(20, TimeUnit.SECONDS);
    assertThat(loads).as("loads").hasValue(1);
  }

  @Test
  void countsATextSeenOnceWithoutRememberingIt() {
    // 443 characters: 40 × ("reply", " once"), then " now"; no other test counts this text
    String reply = "reply once ".repeat(40) + "now";
    int remembered = o200k.rememberedCounts();

    assertThat(o200k.countOnce(reply)).isEqualTo(81);
    assertThat(o200k.rememberedCounts()).as("after countOnce").isEqualTo(remembered);
    assertThat(o200k.count(reply)).isEqualTo(81);
    assertThat(o200k.rememberedCounts()).as("after count").isEqualTo(remembered + 1);
    assertThat(o200k.countOnce("")).isZero();
    assertThat(o200k.countOnce(null)).isZero();
  }

  @Test
  void countsTheChatRolesAsOneTokenEach() {
    // Derived by running jtokkit; the cookbook's 129 and 124 (RequestEstimateTest) depend on it.
    for (String role : new String[] {"system", "user", "assistant"}) {
      assertThat(cl100k.count(role)).as(role).isEqualTo(1);
      assertThat(o200k.count(role)).as(role).isEqualTo(1);
    }
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
    "gpt-4o, o200k_base",
    "gpt-4o-mini-2024-07-18, o200k_base",
    "chatgpt-4o-latest, o200k_base",
    "gpt-4.1-nano, o200k_base",
    "gpt-4.5-preview, o200k_base",
    "gpt-5, o200k_base",
    "gpt-5.1-codex, o200k_base",
    "o1, o200k_base",
    "o1-mini, o200k_base",
    "o3-mini-2025-01-31, o200k_base",
    "o4-mini, o200k_base",
    "gpt-oss-120b, o200k_base",
    "ft:gpt-4o-mini-2024-07-18:acme::9abc, o200k_base",
    "openai/gpt-4o, o200k_base",
    "gpt-4, cl100k_base",
    "gpt-4-0613, cl100k_base",
    "gpt-4-turbo-2024-04-09, cl100k_base",
    "gpt-4-32k, cl100k_base",
    "gpt-3.5-turbo, cl100k_base",
    "gpt-35-turbo, cl100k_base",
    "text-embedding-3-small, cl100k_base",
    "text-embedding-ada-002, cl100k_base",
    "llama-3.1-70b-instruct, o200k_base",
    "my-deployment, o200k_base",
  })
  void choosesTheEncodingOfTheModelsFamily(String model, String encoding) {
    assertThat(TokenCounter.forModel(model).encodingName()).isEqualTo(encoding);
    assertThat(TokenCounter.forModel(model).approximate()).isFalse();
  }

  @Test
  void anUnnamedModelGetsTheDefaultEncoding() {
    assertThat(TokenCounter.forModel(null).encodingName()).isEqualTo("o200k_base");
  }

  @Test
  void claudeIsApproximatedWithCl100kScaledByOnePointTwoRoundedUp() {
    TokenCounter claude = TokenCounter.forModel("claude-sonnet-4-5");
    assertThat(claude).isSameAs(TokenCounter.anthropic());
    assertThat(claude.encodingName()).isEqualTo("cl100k_base");
    assertThat(claude.approximate()).isTrue();
    assertThat(claude.count("tiktoken is great!")).isEqualTo(6);
    assertThat(claude.scale(6)).isEqualTo(8);   // 7.2 rounded up
    assertThat(claude.scale(105)).isEqualTo(126); // exactly 126
    assertThat(claude.scale(0)).isZero();
    assertThat(o200k.scale(6)).isEqualTo(6);
  }

  @Test
  void aProviderNeedsTheDefaultEncodingAndThoseOfTheModelsItsConfigurationNames() {
    assertThat(TokenCounter.forProvider(ProviderApi.OPENAI, List.of())).extracting(TokenCounter::toString)
        .containsExactly("o200k_base");
    assertThat(TokenCounter.forProvider(ProviderApi.AZURE_OPENAI, List.of("gpt-4", "gpt-4o-mini")))
        .extracting(TokenCounter::toString).containsExactly("o200k_base", "cl100k_base");
    assertThat(TokenCounter.forProvider(ProviderApi.OPENAI, List.of("claude-sonnet-4-5")))
        .extracting(TokenCounter::toString).containsExactly("o200k_base", "cl100k_base x1.2");
    assertThat(TokenCounter.forProvider(ProviderApi.ANTHROPIC, List.of("claude-sonnet-4-5", "gpt-4o")))
        .containsExactly(TokenCounter.anthropic());
  }

  @Test
  void warmsUpTheCountersItIsGiven() throws Exception {
    TokenCounter.warmUp(List.of(o200k)).get(30, TimeUnit.SECONDS);

    assertThat(o200k.count("hello world")).isEqualTo(2);
  }

  @Test
  void specialTokensInTextAreOrdinaryTextNeverAnError() {
    assertThat(cl100k.count("<|endoftext|>")).isGreaterThan(1);
    assertThat(o200k.count("a lone surrogate \ud83d here")).isPositive();
    assertThat(o200k.count("")).isZero();
    assertThat(o200k.count(null)).isZero();
  }

  @Test
  void warmingUpNoCounterIsDoneBeforeItReturns() {
    // no thread is started for nothing: the future is complete as it is handed back
    assertThat(TokenCounter.warmUp(List.of())).isCompleted();
  }
}
