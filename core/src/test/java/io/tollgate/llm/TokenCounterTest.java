package io.tollgate.llm;

import static org.assertj.core.api.Assertions.assertThat;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.EncodingType;
import com.knuddels.jtokkit.api.EncodingRegistry;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Published counts: jtokkit's and tiktoken's README ("hello world" is 2 tokens), and OpenAI's
 * cookbook "How to count tokens with tiktoken" (section 5, comparing encodings).
 */
class TokenCounterTest {

  @BeforeAll
  static void encodingsLoaded() {
    TokenCounter.awaitLoaded(Duration.ofSeconds(30));
  }

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
    assertThat(o200k.count(lone)).isEqualTo(o200k.count(sent));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {
    "Say hello to the benchmark in five words.",
    "I'M sure they'RE here, aren't they? We'll see; you'd know. IT'S, she's, I've",
    "2 + 2 = 4; 1234567890 3.14159 -42 1e10 ١٢٣ 五十",
    "    indented\n\n\n\ttabs\r\n  trailing   \n",
    "{\"model\":\"gpt-4o\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}",
    "お誕生日おめでとう 生日快乐 생일 축하해요 С днём рождения",
    "emoji 👍🏽 and 🇫🇷 flags, 🤖✨",
    "<|endoftext|> is text here, as is <|endofprompt|>",
  })
  void countsEveryTextAsJtokkitDoesOnceLoaded(String text) {
    EncodingRegistry jtokkit = Encodings.newLazyEncodingRegistry();

    assertThat(o200k.count(text))
        .isEqualTo(jtokkit.getEncoding(EncodingType.O200K_BASE).countTokensOrdinary(text));
    assertThat(cl100k.count(text))
        .isEqualTo(jtokkit.getEncoding(EncodingType.CL100K_BASE).countTokensOrdinary(text));
  }

  @Test
  void countsCharactersOverFourRoundedUpUntilItsEncodingIsLoaded() throws Exception {
    CountDownLatch loadMayEnd = new CountDownLatch(1);
    BackgroundEncoding held = new BackgroundEncoding("o200k_base", () -> {
      awaitQuietly(loadMayEnd);
      return Encodings.newLazyEncodingRegistry().getEncoding(EncodingType.O200K_BASE);
    });
    TokenCounter counter = new TokenCounter(held, false);
    try {
      assertThat(counter.count("hello world")).as("11 characters").isEqualTo(3);
      assertThat(counter.count("abcd")).isEqualTo(1);
      assertThat(counter.count("abcde")).isEqualTo(2);
      assertThat(counter.count("")).isZero();
      assertThat(counter.count(null)).isZero();
      assertThat(counter.loaded()).isFalse();
    } finally {
      loadMayEnd.countDown();
    }
    held.load().get(20, TimeUnit.SECONDS);

    assertThat(counter.loaded()).isTrue();
    assertThat(counter.count("hello world")).isEqualTo(2);
  }

  @Test
  void theAnthropicApproximationScalesTheEstimateAsItScalesACount() throws Exception {
    CountDownLatch loadMayEnd = new CountDownLatch(1);
    BackgroundEncoding held = new BackgroundEncoding("cl100k_base", () -> {
      awaitQuietly(loadMayEnd);
      return Encodings.newLazyEncodingRegistry().getEncoding(EncodingType.CL100K_BASE);
    });
    TokenCounter claude = new TokenCounter(held, true);
    String prompt = "Say hello to the benchmark in five words.";
    try {
      // 41 characters: 11 tokens estimated, × 1.2 rounded up
      assertThat(claude.scale(claude.count(prompt))).isEqualTo(14);
    } finally {
      loadMayEnd.countDown();
    }
    held.load().get(20, TimeUnit.SECONDS);

    // 9 tokens in cl100k_base, × 1.2 rounded up
    assertThat(claude.scale(claude.count(prompt))).isEqualTo(11);
  }

  @Test
  void loadsItsEncodingOnADaemonThreadNeverOnTheCallers() throws Exception {
    AtomicReference<Thread> loadedOn = new AtomicReference<>();
    AtomicInteger loads = new AtomicInteger();
    BackgroundEncoding encoding = new BackgroundEncoding("o200k_base", () -> {
      loads.incrementAndGet();
      loadedOn.set(Thread.currentThread());
      return Encodings.newLazyEncodingRegistry().getEncoding(EncodingType.O200K_BASE);
    });
    TokenCounter counter = new TokenCounter(encoding, false);
    TokenCounter sharingIt = new TokenCounter(encoding, true);

    counter.count("the first count starts the load");
    TokenCounter.startLoading(List.of(counter, sharingIt)).get(20, TimeUnit.SECONDS);

    assertThat(loadedOn.get()).isNotSameAs(Thread.currentThread());
    assertThat(loadedOn.get().isDaemon()).isTrue();
    assertThat(loadedOn.get().getName()).isEqualTo("tollgate-tokenizer-load");
    assertThat(loads).as("loads of one encoding that two counters share").hasValue(1);
  }

  @Test
  void anEncodingThatCannotBeLoadedLeavesItsCountsEstimated() {
    BackgroundEncoding broken = new BackgroundEncoding("o200k_base", () -> {
      throw new IllegalStateException("o200k_base.tiktoken is missing");
    });
    TokenCounter counter = new TokenCounter(broken, false);

    assertThat(TokenCounter.startLoading(List.of(counter)))
        .failsWithin(Duration.ofSeconds(20))
        .withThrowableOfType(ExecutionException.class)
        .withMessageContaining("o200k_base.tiktoken is missing");
    assertThat(counter.loaded()).isFalse();
    assertThat(counter.count("hello world")).isEqualTo(3);
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
  void specialTokensInTextAreOrdinaryTextNeverAnError() {
    assertThat(cl100k.count("<|endoftext|>")).isGreaterThan(1);
    assertThat(o200k.count("a lone surrogate \ud83d here")).isPositive();
    assertThat(o200k.count("")).isZero();
    assertThat(o200k.count(null)).isZero();
  }

  @Test
  void loadingNoCounterIsDoneBeforeItReturns() {
    assertThat(TokenCounter.startLoading(List.of())).isCompleted();
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
