package io.tollgate.llm;

import static io.tollgate.llm.Fixtures.utf8;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * The estimate reserved before a call. Where a figure is not published, it is added up by hand in
 * a comment from the published counts of TokenCounterTest (and the one-token roles).
 */
class RequestEstimateTest {

  /** The figures below are the tokenizer's own: counted once its encodings are loaded. */
  @BeforeAll
  static void encodingsLoaded() {
    TokenCounter.awaitLoaded(Duration.ofSeconds(30));
  }

  private static final long DEFAULT_MAX_OUTPUT = 1024;

  private final LlmProtocol openAi = LlmProtocol.of(ProviderApi.OPENAI);
  private final LlmProtocol azure = LlmProtocol.of(ProviderApi.AZURE_OPENAI);
  private final LlmProtocol anthropic = LlmProtocol.of(ProviderApi.ANTHROPIC);

  @Nested
  class OpenAiChat {

    @Test
    void countsTheCookbookConversationAsTheApiDidForGpt4() {
      // OpenAI cookbook, "How to count tokens with tiktoken": 129 prompt tokens, by the API too.
      LlmRequest request = openAi.readRequest("/v1/chat/completions",
          Fixtures.bytes("requests/chat-cookbook.json"), DEFAULT_MAX_OUTPUT);

      assertThat(request.endpoint()).isEqualTo(LlmEndpoint.CHAT_COMPLETIONS);
      assertThat(request.model()).contains("gpt-4-0613");
      assertThat(request.maxOutputTokens()).isEqualTo(OptionalLong.of(1));
      assertThat(request.stream()).isFalse();
      assertThat(request.estimate()).isEqualTo(new TokenEstimate(129, 1, EstimateBasis.TOKENIZER, "cl100k_base"));
      assertThat(request.estimate().totalTokens()).isEqualTo(130);
    }

    @Test
    void countsTheCookbookConversationAsTheApiDidForGpt4o() {
      // Same cookbook, updated for gpt-4o: 124 prompt tokens, by the API too.
      byte[] body = utf8(Fixtures.text("requests/chat-cookbook.json").replace("gpt-4-0613", "gpt-4o-2024-08-06"));

      LlmRequest request = openAi.readRequest("/v1/chat/completions", body, DEFAULT_MAX_OUTPUT);

      assertThat(request.estimate()).isEqualTo(new TokenEstimate(124, 1, EstimateBasis.TOKENIZER, "o200k_base"));
    }

    @Test
    void countsToolDefinitionsAsTheApiDid() {
      // Cookbook section 7: 105 prompt tokens for gpt-4 and 101 for gpt-4o, by the API too.
      byte[] gpt4 = Fixtures.bytes("requests/chat-tools-cookbook.json");
      byte[] gpt4o = utf8(Fixtures.text("requests/chat-tools-cookbook.json").replace("\"gpt-4\"", "\"gpt-4o\""));

      assertThat(openAi.readRequest("/v1/chat/completions", gpt4, DEFAULT_MAX_OUTPUT).estimate())
          .isEqualTo(new TokenEstimate(105, 1024, EstimateBasis.TOKENIZER, "cl100k_base"));
      assertThat(openAi.readRequest("/v1/chat/completions", gpt4o, DEFAULT_MAX_OUTPUT).estimate())
          .isEqualTo(new TokenEstimate(101, 1024, EstimateBasis.TOKENIZER, "o200k_base"));
    }

    @Test
    void reservesTheDefaultOutputWhenTheRequestNamesNoCap() {
      LlmRequest request = openAi.readRequest("/v1/chat/completions",
          utf8("{\"model\":\"gpt-4o\",\"messages\":[{\"role\":\"user\",\"content\":\"hello world\"}]}"), 500);

      // 3 + user 1 + "hello world" 2 + priming 3
      assertThat(request.estimate()).isEqualTo(new TokenEstimate(9, 500, EstimateBasis.TOKENIZER, "o200k_base"));
      assertThat(request.maxOutputTokens()).isEmpty();
    }

    @Test
    void prefersMaxCompletionTokensAndMultipliesByTheNumberOfChoices() {
      LlmRequest request = openAi.readRequest("/v1/chat/completions", utf8("""
          {"model":"o3-mini","max_tokens":50,"max_completion_tokens":100,"n":3,
           "messages":[{"role":"user","content":"hello world"}]}"""), DEFAULT_MAX_OUTPUT);

      assertThat(request.maxOutputTokens()).isEqualTo(OptionalLong.of(100));
      assertThat(request.estimate().outputTokens()).isEqualTo(300);
    }

    @Test
    void ignoresCapsThatAreNotNonNegativeIntegers() {
      LlmRequest request = openAi.readRequest("/v1/chat/completions", utf8("""
          {"model":"gpt-4o","max_tokens":"lots","max_completion_tokens":-5,"n":1e9,
           "messages":[{"role":"user","content":"hello world"}]}"""), 64);

      assertThat(request.maxOutputTokens()).isEmpty();
      assertThat(request.estimate().outputTokens()).isEqualTo(64);
    }

    @Test
    void readsTheStreamFlagAndTheUsageOption() {
      LlmRequest asked = openAi.readRequest("/v1/chat/completions", utf8("""
          {"model":"gpt-4o","stream":true,"stream_options":{"include_usage":true},"messages":[]}"""), 1);
      LlmRequest notAsked = openAi.readRequest("/v1/chat/completions", utf8("""
          {"model":"gpt-4o","stream":true,"messages":[]}"""), 1);

      assertThat(asked.stream()).isTrue();
      assertThat(asked.includeUsage()).isTrue();
      assertThat(asked.streamReportsUsage()).isTrue();
      assertThat(notAsked.includeUsage()).isFalse();
      assertThat(notAsked.streamReportsUsage()).isFalse();
    }

    @Test
    void countsAnImagePartAsAFixedFigureWithoutReadingItsBase64() {
      String image = "data:image/png;base64," + "A".repeat(3_000_000);
      LlmRequest request = openAi.readRequest("/v1/chat/completions", utf8("""
          {"model":"gpt-4o","messages":[{"role":"user","content":[
            {"type":"text","text":"hello world"},
            {"type":"image_url","image_url":{"url":"%s","detail":"high"}}]}]}""".formatted(image)), 10);

      // 3 + user 1 + "hello world" 2 + priming 3, and 765 for the image
      assertThat(request.estimate().promptTokens()).isEqualTo(9 + 765);
    }

    @Test
    void countsAssistantToolCallsAndToolResults() {
      LlmRequest request = openAi.readRequest("/v1/chat/completions", utf8("""
          {"model":"gpt-4","messages":[
            {"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function",
              "function":{"name":"tiktoken is great!","arguments":"2 + 2 = 4"}}]},
            {"role":"tool","tool_call_id":"call_1","content":"hello world"}]}"""), 0);

      // (3 + assistant 1 + 6 + 7) + (3 + tool 1 + 2) + priming 3; "tool" is one token too
      assertThat(request.estimate().promptTokens()).isEqualTo(17 + 6 + 3);
    }
  }

  @Nested
  class Azure {

    @Test
    void takesTheDeploymentFromThePathAndItsTokenizerFromTheDeployment() {
      LlmRequest request = azure.readRequest(
          "/openai/deployments/gpt-35-turbo/chat/completions?api-version=2024-10-21",
          utf8(Fixtures.text("requests/chat-cookbook.json").replace("\"model\": \"gpt-4-0613\",", "")),
          DEFAULT_MAX_OUTPUT);

      assertThat(request.deployment()).contains("gpt-35-turbo");
      assertThat(request.model()).isEmpty();
      assertThat(request.modelOrDeployment()).contains("gpt-35-turbo");
      assertThat(request.estimate()).isEqualTo(new TokenEstimate(129, 1, EstimateBasis.TOKENIZER, "cl100k_base"));
    }

    @Test
    void theDeploymentWinsOverTheBodysModelWhichAzureIgnores() {
      LlmRequest request = azure.readRequest(
          "https://acme.openai.azure.com/openai/deployments/gpt-4o/chat/completions?api-version=2024-10-21",
          Fixtures.bytes("requests/chat-cookbook.json"), DEFAULT_MAX_OUTPUT);

      assertThat(request.deployment()).contains("gpt-4o");
      assertThat(request.model()).contains("gpt-4-0613");
      assertThat(request.estimate().promptTokens()).isEqualTo(124);
    }

    @Test
    void decodesAPercentEncodedDeploymentName() {
      LlmRequest request = azure.readRequest("/openai/deployments/team%20chat/embeddings?api-version=2024-10-21",
          utf8("{\"input\":\"hello world\"}"), DEFAULT_MAX_OUTPUT);

      assertThat(request.deployment()).contains("team chat");
      assertThat(request.endpoint()).isEqualTo(LlmEndpoint.EMBEDDINGS);
      assertThat(request.estimate()).isEqualTo(new TokenEstimate(2, 0, EstimateBasis.TOKENIZER, "o200k_base"));
    }

    @Test
    void readsTheV1PathWithTheModelInTheBody() {
      LlmRequest request = azure.readRequest("/openai/v1/chat/completions",
          Fixtures.bytes("requests/chat-cookbook.json"), DEFAULT_MAX_OUTPUT);

      assertThat(request.deployment()).isEmpty();
      assertThat(request.estimate().promptTokens()).isEqualTo(129);
    }
  }

  @Nested
  class Responses {

    @Test
    void countsInstructionsAndEveryKindOfInputItem() {
      LlmRequest request = openAi.readRequest("/v1/responses", Fixtures.bytes("requests/responses-items.json"),
          DEFAULT_MAX_OUTPUT);

      // o200k: instructions 3 + system 1 + "2 + 2 = 4" 7 = 11
      //   message 3 + user 1 + "tiktoken is great!" 6 = 10, its image 765
      //   function_call 3 + name "antidisestablishmentarianism" 6 + arguments "お誕生日おめでとう" 8 = 17
      //   function_call_output 3 + "2 + 2 = 4" 7 = 10; priming 3
      assertThat(request.endpoint()).isEqualTo(LlmEndpoint.RESPONSES);
      assertThat(request.maxOutputTokens()).isEqualTo(OptionalLong.of(256));
      assertThat(request.stream()).isTrue();
      assertThat(request.streamReportsUsage()).isTrue();
      assertThat(request.estimate()).isEqualTo(new TokenEstimate(51 + 765, 256, EstimateBasis.TOKENIZER, "o200k_base"));
    }

    @Test
    void aStringInputIsOneUserMessage() {
      LlmRequest request = openAi.readRequest("/v1/responses",
          utf8("{\"model\":\"gpt-4\",\"input\":\"tiktoken is great!\",\"max_output_tokens\":100}"), DEFAULT_MAX_OUTPUT);

      // 3 + user 1 + 6 + priming 3
      assertThat(request.estimate()).isEqualTo(new TokenEstimate(13, 100, EstimateBasis.TOKENIZER, "cl100k_base"));
    }

    @Test
    void countsFlatFunctionToolsWithTheSameRecipe() {
      LlmRequest chat = openAi.readRequest("/v1/chat/completions", Fixtures.bytes("requests/chat-tools-cookbook.json"), 0);
      LlmRequest responses = openAi.readRequest("/v1/responses", utf8("""
          {"model":"gpt-4",
           "instructions":"You are a helpful assistant that can answer to questions about the weather.",
           "input":[{"role":"user","content":"What's the weather like in San Francisco?"}],
           "tools":[{"type":"function","name":"get_current_weather",
             "description":"Get the current weather in a given location",
             "parameters":{"type":"object","properties":{
               "location":{"type":"string","description":"The city and state, e.g. San Francisco, CA"},
               "unit":{"type":"string","description":"The unit of temperature to return","enum":["celsius","fahrenheit"]}},
             "required":["location"]}}]}"""), 0);

      assertThat(responses.estimate().promptTokens()).isEqualTo(chat.estimate().promptTokens()).isEqualTo(105);
    }
  }

  @Nested
  class Anthropic {

    @Test
    void approximatesWithCl100kTimesOnePointTwoPlusTheToolPrompt() {
      LlmRequest request = anthropic.readRequest("/v1/messages", Fixtures.bytes("requests/anthropic-tools-cookbook.json"),
          DEFAULT_MAX_OUTPUT);

      // The cookbook's tools example in Anthropic's shape: 105 in cl100k_base, × 1.2 = 126,
      // plus the 346-token system prompt Anthropic adds for tools.
      assertThat(request.endpoint()).isEqualTo(LlmEndpoint.MESSAGES);
      assertThat(request.estimate()).isEqualTo(new TokenEstimate(126 + 346, 1024, EstimateBasis.APPROXIMATION, "cl100k_base"));
    }

    @Test
    void countsSystemBlocksImagesAndToolResults() {
      LlmRequest request = anthropic.readRequest("/v1/messages", Fixtures.bytes("requests/anthropic-messages.json"), 10);

      // cl100k: system 3 + 1 + "tiktoken is great!" 6 = 10; user 3 + 1 + "お誕生日おめでとう" 9 = 13;
      // assistant 3 + 1 + "2 + 2 = 4" 7 = 11; user 3 + 1 + "antidisestablishmentarianism" 6 = 10;
      // priming 3: 47 × 1.2 = 56.4 -> 57, plus 1600 for the image.
      assertThat(request.model()).contains("claude-sonnet-4-5-20250929");
      assertThat(request.maxOutputTokens()).isEqualTo(OptionalLong.of(1024));
      assertThat(request.stream()).isTrue();
      assertThat(request.streamReportsUsage()).isTrue();
      assertThat(request.estimate()).isEqualTo(new TokenEstimate(57 + 1600, 1024, EstimateBasis.APPROXIMATION, "cl100k_base"));
    }

    @Test
    void countsAToolUseInputAsJsonNamesIncluded() {
      LlmRequest without = anthropic.readRequest("/v1/messages", utf8("""
          {"model":"claude-haiku-4-5","max_tokens":1,"messages":[{"role":"assistant","content":[
            {"type":"tool_use","id":"toolu_1","name":"hello world","input":{}}]}]}"""), 0);
      LlmRequest with = anthropic.readRequest("/v1/messages", utf8("""
          {"model":"claude-haiku-4-5","max_tokens":1,"messages":[{"role":"assistant","content":[
            {"type":"tool_use","id":"toolu_1","name":"hello world","input":{"hello world":"tiktoken is great!"}}]}]}"""), 0);

      // raw: 3 + assistant 1 + "hello world" 2 + priming 3 = 9 -> 10.8 -> 11;
      // with the input, 9 + "hello world" 2 + 6 = 17 -> 20.4 -> 21
      assertThat(without.estimate().promptTokens()).isEqualTo(11);
      assertThat(with.estimate().promptTokens()).isEqualTo(21);
    }

    @Test
    void aClaudeModelBehindAnOpenAiCompatibleApiIsApproximatedToo() {
      LlmRequest request = openAi.readRequest("/v1/chat/completions",
          utf8("{\"model\":\"anthropic/claude-sonnet-4-5\",\"messages\":[{\"role\":\"user\",\"content\":\"tiktoken is great!\"}]}"), 0);

      // (3 + 1 + 6 + 3) × 1.2 = 15.6 -> 16
      assertThat(request.estimate()).isEqualTo(new TokenEstimate(16, 0, EstimateBasis.APPROXIMATION, "cl100k_base"));
    }

    @Test
    void countTokensCostsNoTokens() {
      LlmRequest request = anthropic.readRequest("/v1/messages/count_tokens",
          Fixtures.bytes("requests/anthropic-messages.json"), DEFAULT_MAX_OUTPUT);

      assertThat(request.endpoint()).isEqualTo(LlmEndpoint.COUNT_TOKENS);
      assertThat(request.model()).contains("claude-sonnet-4-5-20250929");
      assertThat(request.estimate()).isEqualTo(new TokenEstimate(0, 0, EstimateBasis.NONE, ""));
    }
  }

  @Nested
  class OtherEndpoints {

    @Test
    void embeddingsCountTheirInputAndNoOutput() {
      LlmRequest strings = openAi.readRequest("/v1/embeddings",
          utf8("{\"model\":\"text-embedding-3-small\",\"input\":[\"hello world\",\"tiktoken is great!\"]}"), DEFAULT_MAX_OUTPUT);
      LlmRequest tokenIds = openAi.readRequest("/v1/embeddings",
          utf8("{\"model\":\"text-embedding-3-small\",\"input\":[[15339, 1917],[83, 1609, 5963]]}"), DEFAULT_MAX_OUTPUT);

      assertThat(strings.estimate()).isEqualTo(new TokenEstimate(8, 0, EstimateBasis.TOKENIZER, "cl100k_base"));
      assertThat(tokenIds.estimate()).isEqualTo(new TokenEstimate(5, 0, EstimateBasis.TOKENIZER, "cl100k_base"));
    }

    @Test
    void legacyCompletionsCountThePromptAndTheCapTimesN() {
      LlmRequest request = openAi.readRequest("/v1/completions",
          utf8("{\"model\":\"gpt-3.5-turbo-instruct\",\"prompt\":[\"tiktoken is great!\",\"2 + 2 = 4\"],\"max_tokens\":16,\"n\":2}"),
          DEFAULT_MAX_OUTPUT);

      assertThat(request.endpoint()).isEqualTo(LlmEndpoint.COMPLETIONS);
      assertThat(request.estimate()).isEqualTo(new TokenEstimate(13, 32, EstimateBasis.TOKENIZER, "cl100k_base"));
    }

    @Test
    void anEndpointThatCostsNoTokensIsNeitherParsedNorCharged() {
      LlmRequest models = openAi.readRequest("/v1/models", new byte[0], DEFAULT_MAX_OUTPUT);
      LlmRequest assistants = openAi.readRequest("/v1/threads/thread_abc/messages",
          utf8("{\"role\":\"user\",\"content\":\"hello\"}"), DEFAULT_MAX_OUTPUT);

      assertThat(models.endpoint()).isEqualTo(LlmEndpoint.OTHER);
      assertThat(models.estimate()).isEqualTo(new TokenEstimate(0, 0, EstimateBasis.NONE, ""));
      assertThat(assistants.endpoint()).isEqualTo(LlmEndpoint.OTHER);
    }
  }

  @Nested
  class MalformedBodies {

    @Test
    void anUnreadableBodyIsEstimatedFromItsSizeAndFlagged() {
      byte[] body = utf8("this is not JSON at all"); // 23 bytes -> 6 tokens

      LlmRequest request = openAi.readRequest("/v1/chat/completions", body, DEFAULT_MAX_OUTPUT);

      assertThat(request.estimate()).isEqualTo(new TokenEstimate(6, 1024, EstimateBasis.BODY_SIZE, ""));
      assertThat(request.estimate().fromBodySize()).isTrue();
    }

    @Test
    void aTruncatedBodyKeepsWhatItSaidBeforeTheCut() {
      byte[] body = utf8("{\"model\":\"gpt-4o\",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"hel");

      LlmRequest request = openAi.readRequest("/v1/chat/completions", body, 100);

      assertThat(request.model()).contains("gpt-4o");
      assertThat(request.stream()).isTrue();
      assertThat(request.estimate()).isEqualTo(new TokenEstimate((body.length + 3) / 4, 100, EstimateBasis.BODY_SIZE, ""));
    }

    @Test
    void shapesThatAreNotAnObjectAreFlagged() {
      for (String body : new String[] {"", "[]", "null", "42", "{\"model\":\"gpt-4o\"} trailing", "{\"a\":1}{\"b\":2}"}) {
        LlmRequest request = openAi.readRequest("/v1/chat/completions", utf8(body), 7);
        assertThat(request.estimate().basis()).as(body).isEqualTo(EstimateBasis.BODY_SIZE);
        assertThat(request.estimate().outputTokens()).as(body).isEqualTo(7);
      }
    }

    @Test
    void aHostilelyDeepBodyIsFlaggedNotAStackOverflow() {
      byte[] body = utf8("{\"messages\":" + "[".repeat(100_000) + "]".repeat(100_000) + "}");

      LlmRequest request = openAi.readRequest("/v1/chat/completions", body, 1);

      assertThat(request.estimate().basis()).isEqualTo(EstimateBasis.BODY_SIZE);
    }

    @Test
    void wrongTypesInAWellFormedBodyAreReadAsWellAsTheyCanBe() {
      LlmRequest request = openAi.readRequest("/v1/chat/completions",
          utf8("{\"model\":7,\"messages\":\"hello world\",\"stream\":\"yes\",\"tools\":{}}"), 5);

      assertThat(request.model()).isEmpty();
      assertThat(request.stream()).isFalse();
      // "hello world" 2 + priming 3
      assertThat(request.estimate()).isEqualTo(new TokenEstimate(5, 5, EstimateBasis.TOKENIZER, "o200k_base"));
    }

    @Test
    void aNullOrOutOfRangeBodyIsAnEmptyOne() {
      assertThat(openAi.readRequest("/v1/chat/completions", null, 3).estimate())
          .isEqualTo(new TokenEstimate(0, 3, EstimateBasis.BODY_SIZE, ""));
      assertThat(openAi.readRequest("/v1/chat/completions", new byte[4], 2, 10, 3).estimate())
          .isEqualTo(new TokenEstimate(0, 3, EstimateBasis.BODY_SIZE, ""));
    }
  }

  @Nested
  class StreamedBodies {

    @Test
    void aBodyNotReadIsEstimatedFromItsDeclaredLength() {
      LlmRequest unseen = openAi.readRequest("/v1/chat/completions", new byte[0], DEFAULT_MAX_OUTPUT);
      LlmRequest embeddings = openAi.readRequest("/v1/embeddings", new byte[0], DEFAULT_MAX_OUTPUT);

      assertThat(unseen.withPromptBySize(4_001).estimate())
          .isEqualTo(new TokenEstimate(1_001, 1024, EstimateBasis.BODY_SIZE, ""));
      assertThat(unseen.withPromptBySize(0).estimate())
          .isEqualTo(new TokenEstimate(0, 1024, EstimateBasis.BODY_SIZE, ""));
      assertThat(embeddings.withPromptBySize(400).estimate())
          .isEqualTo(new TokenEstimate(100, 0, EstimateBasis.BODY_SIZE, ""));
      assertThat(unseen.withPromptBySize(4_001).endpoint()).isEqualTo(LlmEndpoint.CHAT_COMPLETIONS);
    }

    @Test
    void anEndpointThatCostsNoTokensStaysAtZero() {
      LlmRequest upload = openAi.readRequest("/v1/files", new byte[0], DEFAULT_MAX_OUTPUT);

      assertThat(upload.withPromptBySize(1_000_000).estimate())
          .isEqualTo(new TokenEstimate(0, 0, EstimateBasis.NONE, ""));
    }
  }

  /** Figures a hostile or broken client may send: clamped to 2^50 tokens, never overflowed. */
  @Nested
  class HostileFigures {

    private static final long MAX = 1_125_899_906_842_624L; // 2^50, TokenEstimate.MAX_TOKENS

    private LlmRequest chat(String settings) {
      return openAi.readRequest("/v1/chat/completions", utf8("{\"model\":\"gpt-4o\"," + settings
          + ",\"messages\":[{\"role\":\"user\",\"content\":\"hello world\"}]}"), DEFAULT_MAX_OUTPUT);
    }

    @Test
    void aMaxTokensOfLongMaxIsClampedAndTheTotalDoesNotOverflow() {
      LlmRequest request = chat("\"max_tokens\":9223372036854775807");

      // 3 + user 1 + "hello world" 2 + priming 3
      assertThat(request.estimate()).isEqualTo(new TokenEstimate(9, MAX, EstimateBasis.TOKENIZER, "o200k_base"));
      assertThat(request.estimate().totalTokens()).isEqualTo(MAX);
    }

    @Test
    void nTimesAHugeCapIsClampedRatherThanWrappedRound() {
      // 2^62 × 4 wraps to 0 in a long; Long.MAX_VALUE × 2 to -2
      LlmRequest wrapsToZero = chat("\"max_completion_tokens\":4611686018427387904,\"n\":4");
      LlmRequest wrapsNegative = chat("\"max_tokens\":9223372036854775807,\"n\":2");

      assertThat(wrapsToZero.estimate()).isEqualTo(new TokenEstimate(9, MAX, EstimateBasis.TOKENIZER, "o200k_base"));
      assertThat(wrapsNegative.estimate()).isEqualTo(new TokenEstimate(9, MAX, EstimateBasis.TOKENIZER, "o200k_base"));
    }

    @Test
    void aCapBeyondALongIsTheMaximumAndANegativeOneIsIgnored() {
      LlmRequest beyond = chat("\"max_tokens\":99999999999999999999999");
      LlmRequest negative = chat("\"max_tokens\":-9223372036854775808");

      assertThat(beyond.maxOutputTokens()).isEqualTo(OptionalLong.of(MAX));
      assertThat(beyond.estimate().outputTokens()).isEqualTo(MAX);
      assertThat(negative.maxOutputTokens()).isEmpty();
      assertThat(negative.estimate().outputTokens()).isEqualTo(DEFAULT_MAX_OUTPUT);
    }

    @Test
    void anEstimateClampsEveryFigureToZeroUpToTheMaximum() {
      TokenEstimate estimate = new TokenEstimate(-5, Long.MAX_VALUE, EstimateBasis.NONE, "");

      assertThat(estimate.promptTokens()).isZero();
      assertThat(estimate.outputTokens()).isEqualTo(MAX);
      assertThat(new TokenEstimate(Long.MAX_VALUE, Long.MAX_VALUE, EstimateBasis.NONE, "").totalTokens())
          .isEqualTo(MAX);
    }

    @Test
    void aDeclaredLengthOfLongMaxIsClamped() {
      LlmRequest unseen = openAi.readRequest("/v1/chat/completions", new byte[0], DEFAULT_MAX_OUTPUT);

      assertThat(unseen.withPromptBySize(Long.MAX_VALUE).estimate())
          .isEqualTo(new TokenEstimate(MAX / 4, 1024, EstimateBasis.BODY_SIZE, ""));
    }
  }

  @Nested
  class EnormousBodies {

    @Test
    void aTwentyMegabytePromptIsCountedOnItsFirstPartAndExtrapolated() {
      String sentence = "The quick brown fox jumps over the lazy dog. ";
      int repeats = 20_000_000 / sentence.length();
      String prompt = sentence.repeat(repeats);
      byte[] body = utf8("{\"model\":\"gpt-4o\",\"messages\":[{\"role\":\"user\",\"content\":\"" + prompt + "\"}]}");

      LlmRequest request = openAi.readRequest("/v1/chat/completions", body, 0);

      // Each repetition is 10 tokens in o200k_base ("The quick brown fox jumps over the lazy dog."
      // is 10, and the space joins the next "The"), so about 10 × repeats in all.
      long expected = 10L * repeats;
      assertThat(request.estimate().basis()).isEqualTo(EstimateBasis.TOKENIZER);
      assertThat(request.estimate().promptTokens()).isBetween(expected * 99 / 100, expected * 101 / 100);
    }

    @Test
    void aTwentyMegabyteBase64ImageCostsItsFixedFigure() {
      String image = "data:image/jpeg;base64," + "/9j/4AAQSkZJRgABAQ".repeat(1_100_000);
      byte[] body = utf8("{\"model\":\"gpt-4o\",\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"image_url\",\"image_url\":{\"url\":\""
          + image + "\"}}]}]}");

      LlmRequest request = openAi.readRequest("/v1/chat/completions", body, 0);

      // 3 + user 1 + priming 3, and 765
      assertThat(request.estimate().promptTokens()).isEqualTo(7 + 765);
      assertThat(request.model()).isEqualTo(Optional.of("gpt-4o"));
    }
  }
}
