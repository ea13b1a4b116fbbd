package io.tollgate.llm;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The work one request's estimate may cost: a body held only in part is read for its settings
 * and estimated by its size; a body held whole has at most 64 Ki characters tokenized, the rest
 * counted at their rate.
 */
class BoundedRequestReadingTest {

  /** The figures below are the tokenizer's own: counted once its encodings are loaded. */
  @BeforeAll
  static void encodingsLoaded() {
    TokenCounter.awaitLoaded(Duration.ofSeconds(30));
  }

  private static final long DEFAULT_MAX_OUTPUT = 1024;
  private static final int TOKENIZED_CHARACTERS = 64 * 1024;

  private final LlmProtocol openAi = LlmProtocol.of(ProviderApi.OPENAI);

  @Test
  void aPrefixGivesItsSettingsAndTheBodysSizeGivesThePrompt() {
    byte[] prefix = utf8("{\"model\":\"gpt-4o\",\"max_tokens\":300,\"n\":2,\"stream\":true,"
        + "\"stream_options\":{\"include_usage\":true},\"messages\":[{\"role\":\"user\",\"content\":\"aaaa");

    LlmRequest request = openAi.readRequestPrefix("/v1/chat/completions", prefix, 20_000_001,
        DEFAULT_MAX_OUTPUT);

    assertThat(request.model()).contains("gpt-4o");
    assertThat(request.maxOutputTokens()).isEqualTo(OptionalLong.of(300));
    assertThat(request.stream()).isTrue();
    assertThat(request.includeUsage()).isTrue();
    assertThat(request.estimate())
        .as("20,000,001 bytes / 4, rounded up; 300 output tokens for each of 2 choices")
        .isEqualTo(new TokenEstimate(5_000_001, 600, EstimateBasis.BODY_SIZE, ""));
  }

  @Test
  void settingsPastThePrefixAreAbsentAndTheOutputIsTheDefault() {
    byte[] prefix = utf8("{\"messages\":[{\"role\":\"user\",\"content\":\"a long text first");

    LlmRequest request = openAi.readRequestPrefix("/v1/chat/completions", prefix, 4_000_000,
        DEFAULT_MAX_OUTPUT);

    assertThat(request.model()).isEmpty();
    assertThat(request.maxOutputTokens()).isEmpty();
    assertThat(request.estimate())
        .isEqualTo(new TokenEstimate(1_000_000, DEFAULT_MAX_OUTPUT, EstimateBasis.BODY_SIZE, ""));
  }

  @Test
  void aNumberThePrefixEndsInsideIsNotRead() {
    byte[] whole = utf8("{\"model\":\"gpt-4o\",\"max_tokens\":1200,\"messages\":[]}");
    byte[] cut = Arrays.copyOf(whole, whole.length - "00,\"messages\":[]}".length());

    LlmRequest request = openAi.readRequestPrefix("/v1/chat/completions", cut, 4_000, DEFAULT_MAX_OUTPUT);

    assertThat(request.model()).isEqualTo(Optional.of("gpt-4o"));
    assertThat(request.maxOutputTokens()).as("12 of 1200 is no cap").isEmpty();
    assertThat(request.estimate().outputTokens()).isEqualTo(DEFAULT_MAX_OUTPUT);
  }

  @Test
  void anEndpointThatCostsNoTokensStaysAtZeroAndEmbeddingsReserveNoOutput() {
    assertThat(openAi.readRequestPrefix("/v1/files", new byte[0], 50_000_000, DEFAULT_MAX_OUTPUT)
        .estimate()).isEqualTo(new TokenEstimate(0, 0, EstimateBasis.NONE, ""));
    assertThat(openAi.readRequestPrefix("/v1/embeddings", utf8("{\"input\":\"abc"), 400, DEFAULT_MAX_OUTPUT)
        .estimate()).isEqualTo(new TokenEstimate(100, 0, EstimateBasis.BODY_SIZE, ""));
  }

  @Test
  void aHugeSizeIsClampedAsEveryEstimateIs() {
    assertThat(openAi.readRequestPrefix("/v1/chat/completions", new byte[0], Long.MAX_VALUE,
        DEFAULT_MAX_OUTPUT).estimate())
        .isEqualTo(new TokenEstimate(TokenEstimate.MAX_TOKENS / 4, DEFAULT_MAX_OUTPUT, EstimateBasis.BODY_SIZE, ""));
  }

  @Test
  void onlyTheFirst64KiCharactersOfAPromptAreTokenizedTheRestCountedAtTheirRate() {
    // prose first, then a run the tokenizer packs much tighter: counting it all would differ
    String head = "The quick brown fox jumps over the lazy dog. ".repeat(2_000);
    String tail = "a".repeat(400_000);
    String content = head + tail;
    byte[] body = utf8("{\"model\":\"gpt-4o\",\"max_tokens\":10,\"messages\":[{\"role\":\"user\","
        + "\"content\":\"" + content + "\"}]}");

    LlmRequest request = openAi.readRequest("/v1/chat/completions", body, DEFAULT_MAX_OUTPUT);

    TokenCounter o200k = TokenCounter.forModel("gpt-4o");
    // the role comes first and spends 4 characters of the budget
    int contentTokenized = TOKENIZED_CHARACTERS - "user".length();
    long counted = o200k.count("user") + o200k.count(content.substring(0, contentTokenized));
    long uncounted = content.length() - contentTokenized;
    long extrapolated = (uncounted * counted + TOKENIZED_CHARACTERS - 1) / TOKENIZED_CHARACTERS;
    long overheads = 3 + 3; // the message, and the reply's priming
    assertThat(request.estimate())
        .isEqualTo(new TokenEstimate(counted + extrapolated + overheads, 10, EstimateBasis.TOKENIZER, "o200k_base"));
    assertThat(request.estimate().promptTokens())
        .as("not what tokenizing every character gives")
        .isNotEqualTo(o200k.count("user") + o200k.count(content) + overheads);
  }

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
