package io.tollgate.llm;

import static io.tollgate.llm.Fixtures.utf8;
import static io.tollgate.llm.Fixtures.whole;
import static org.assertj.core.api.Assertions.assertThat;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.EncodingType;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** Usage read from the providers' own response shapes, streamed or not. */
class UsageFromResponsesTest {

  /** The figures below are the tokenizer's own: counted once its encodings are loaded. */
  @BeforeAll
  static void encodingsLoaded() {
    TokenCounter.awaitLoaded(Duration.ofSeconds(30));
  }

  private final LlmProtocol openAi = LlmProtocol.of(ProviderApi.OPENAI);
  private final LlmProtocol azure = LlmProtocol.of(ProviderApi.AZURE_OPENAI);
  private final LlmProtocol anthropic = LlmProtocol.of(ProviderApi.ANTHROPIC);

  private static Usage reported(long in, long out, long cacheRead, long cacheWrite, String model) {
    return Usage.reported(in, out, cacheRead, cacheWrite, Optional.of(model));
  }

  private static Usage estimated(long in, long out, long cacheRead, long cacheWrite, String model) {
    return Usage.estimated(in, out, cacheRead, cacheWrite, Optional.of(model));
  }

  private static Usage json(LlmProtocol protocol, String fixture) {
    return whole(protocol.newUsageTap("application/json", false), Fixtures.bytes(fixture));
  }

  private static Usage sse(LlmProtocol protocol, String fixture) {
    return whole(protocol.newUsageTap("text/event-stream; charset=utf-8", true), Fixtures.bytes(fixture));
  }

  @Nested
  class JsonBodies {

    @Test
    void openAiChatReportsPromptCompletionAndCachedTokens() {
      assertThat(json(openAi, "responses/openai-chat.json"))
          .isEqualTo(reported(1117, 46, 1024, 0, "gpt-4o-2024-08-06"));
    }

    @Test
    void openAiChatWithToolCalls() {
      assertThat(json(openAi, "responses/openai-chat-tool-calls.json"))
          .isEqualTo(reported(82, 17, 0, 0, "gpt-4o-mini-2024-07-18"));
    }

    @Test
    void responsesApiReportsInputAndOutputTokens() {
      assertThat(json(openAi, "responses/openai-responses.json"))
          .isEqualTo(reported(328, 52, 0, 0, "gpt-4o-2024-08-06"));
    }

    @Test
    void anthropicInputIncludesItsCacheReadsAndWrites() {
      // input_tokens 2095 + cache_creation 0 + cache_read 1800
      Usage usage = json(anthropic, "responses/anthropic-message.json");

      assertThat(usage).isEqualTo(reported(3895, 503, 1800, 0, "claude-sonnet-4-5-20250929"));
      assertThat(usage.totalTokens()).isEqualTo(4398);
    }

    @Test
    void embeddingsReportInputOnly() {
      assertThat(json(openAi, "responses/openai-embeddings.json"))
          .isEqualTo(reported(8, 0, 0, 0, "text-embedding-3-small"));
    }

    @Test
    void aServerThatReportsNoUsageIsEstimatedFromTheMessageText() {
      // The content is "tiktoken is great!": 6 tokens in cl100k_base, gpt-4's encoding.
      assertThat(json(openAi, "responses/compatible-chat-no-usage.json"))
          .isEqualTo(estimated(0, 6, 0, 0, "gpt-4"));
    }

    @Test
    void theRequestsEstimateStandsInForTheUnreportedInput() {
      LlmRequest request = openAi.readRequest("/v1/chat/completions",
          utf8("{\"model\":\"gpt-4\",\"messages\":[{\"role\":\"user\",\"content\":\"hello world\"}]}"), 100);

      Usage usage = whole(openAi.newUsageTap("application/json", request),
          Fixtures.bytes("responses/compatible-chat-no-usage.json"));

      assertThat(usage).isEqualTo(estimated(9, 6, 0, 0, "gpt-4"));
    }

    @Test
    void aReplyWithoutUsageIsEstimatedFromItsText() {
      String reply = "An answer the chat will not send back as a prompt. ".repeat(8);
      String body = "{\"model\":\"gpt-4o\",\"choices\":[{\"index\":0,\"message\":"
          + "{\"role\":\"assistant\",\"content\":\"" + reply + "\"}}]}";
      int tokens = Encodings.newLazyEncodingRegistry().getEncoding(EncodingType.O200K_BASE)
          .countTokensOrdinary(reply);

      assertThat(whole(openAi.newUsageTap("application/json", false), utf8(body)))
          .isEqualTo(estimated(0, tokens, 0, 0, "gpt-4o"));
      assertThat(tokens).isEqualTo(97); // 8 × 12, and the last space
    }

    @Test
    void absurdReportedFiguresAreClampedNotOverflowed() {
      // 2^50, TokenEstimate.MAX_TOKENS: each figure at most that, and so is their total
      long max = 1_125_899_906_842_624L;
      byte[] openAiBody = utf8("""
          {"model":"gpt-4o","usage":{"prompt_tokens":9223372036854775807,
           "completion_tokens":99999999999999999999999}}""");
      byte[] anthropicBody = utf8("""
          {"model":"claude-haiku-4-5","usage":{"input_tokens":9223372036854775807,
           "cache_creation_input_tokens":9223372036854775807,"cache_read_input_tokens":9223372036854775807,
           "output_tokens":-7}}""");

      Usage openAiUsage = whole(openAi.newUsageTap("application/json", false), openAiBody);
      Usage anthropicUsage = whole(anthropic.newUsageTap("application/json", false), anthropicBody);

      assertThat(openAiUsage).isEqualTo(reported(max, max, 0, 0, "gpt-4o"));
      assertThat(openAiUsage.totalTokens()).isEqualTo(max);
      assertThat(anthropicUsage).isEqualTo(reported(max, 0, max, max, "claude-haiku-4-5"));
      assertThat(anthropicUsage.totalTokens()).isEqualTo(max);
    }

    @Test
    void anErrorBodyHasNoUsage() {
      assertThat(json(openAi, "responses/openai-error-rate-limit.json")).isEqualTo(Usage.unknown());
      assertThat(whole(anthropic.newUsageTap("application/json", false),
          utf8("{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}")))
          .isEqualTo(Usage.unknown());
    }
  }

  @Nested
  class Streams {

    @Test
    void openAiChatFinalUsageChunk() {
      assertThat(sse(openAi, "streams/openai-chat-usage.sse"))
          .isEqualTo(reported(42, 17, 0, 0, "gpt-4o-2024-08-06"));
    }

    @Test
    void openAiChatToolCallsWithCachedPrompt() {
      assertThat(sse(openAi, "streams/openai-chat-tool-calls.sse"))
          .isEqualTo(reported(82, 18, 64, 0, "gpt-4o-2024-08-06"));
    }

    @Test
    void azureStreamWithContentFilterChunksAndAnEmptyFirstModel() {
      assertThat(sse(azure, "streams/azure-chat-usage.sse"))
          .isEqualTo(reported(19, 9, 0, 0, "gpt-4o-2024-11-20"));
    }

    @Test
    void responsesApiCompletedEvent() {
      assertThat(sse(openAi, "streams/openai-responses.sse"))
          .isEqualTo(reported(1337, 64, 1024, 0, "gpt-4.1-2025-04-14"));
    }

    @Test
    void anthropicMessageStartThenCumulativeMessageDelta() {
      // input 25 + cache creation 100 + cache read 2000; output from message_delta, not the 1 of message_start
      assertThat(sse(anthropic, "streams/anthropic-text.sse"))
          .isEqualTo(reported(2125, 15, 2000, 100, "claude-sonnet-4-5-20250929"));
    }

    @Test
    void anthropicThinkingAndToolUse() {
      assertThat(sse(anthropic, "streams/anthropic-tool-use.sse"))
          .isEqualTo(reported(472, 89, 0, 0, "claude-sonnet-4-5-20250929"));
    }

    @Test
    void aStreamWithoutUsageIsEstimatedFromItsDeltas() {
      // The deltas spell "お誕生日おめでとう": 8 tokens in o200k_base (OpenAI cookbook).
      assertThat(sse(openAi, "streams/openai-chat-no-usage.sse"))
          .isEqualTo(estimated(0, 8, 0, 0, "gpt-4o-mini-2024-07-18"));
    }

    @Test
    void anAnthropicStreamCutByAnErrorKeepsItsReportedInputAndEstimatesTheOutput() {
      // "tiktoken is great!" is 6 in cl100k_base; × 1.2 = 7.2 -> 8
      assertThat(sse(anthropic, "streams/anthropic-overloaded.sse"))
          .isEqualTo(estimated(10, 8, 0, 0, "claude-haiku-4-5"));
    }

    @Test
    void anOpenAiStreamCutBeforeItsUsageChunkIsEstimated() {
      String full = Fixtures.text("streams/openai-chat-tool-calls.sse");
      byte[] cut = utf8(full.substring(0, full.indexOf("data: {\"id\":\"chatcmpl-T00L\",\"object\":\"chat.completion.chunk\",\"created\":1730000000,\"model\":\"gpt-4o-2024-08-06\",\"choices\":[],")));

      Usage usage = whole(openAi.newUsageTap("text/event-stream", true), cut);

      // name "get_current_weather" and arguments {"location":"Paris"}, counted together in
      // o200k_base: 8, derived by running jtokkit on that text (3 + 5 when counted apart).
      assertThat(usage).isEqualTo(estimated(0, 8, 0, 0, "gpt-4o-2024-08-06"));
    }

    @Test
    void beforeTheEndTheResultIsWhatWasSeenSoFar() {
      UsageTap tap = anthropic.newUsageTap("text/event-stream", true);
      byte[] body = Fixtures.bytes("streams/anthropic-text.sse");
      String text = Fixtures.text("streams/anthropic-text.sse");
      int afterStart = utf8(text.substring(0, text.indexOf("event: content_block_start"))).length;

      tap.onBytes(body, 0, afterStart);
      Usage early = tap.result();
      tap.onBytes(body, afterStart, body.length - afterStart);
      tap.onEnd();

      assertThat(early).isEqualTo(estimated(2125, 0, 2000, 100, "claude-sonnet-4-5-20250929"));
      assertThat(tap.result()).isEqualTo(reported(2125, 15, 2000, 100, "claude-sonnet-4-5-20250929"));
    }

    @Test
    void serversThatRepeatUsageInEveryChunkEndWithTheLastFigure() {
      String stream = """
          data: {"model":"m","choices":[{"delta":{"content":"a"}}],"usage":{"prompt_tokens":5,"completion_tokens":1}}

          data: {"model":"m","choices":[{"delta":{"content":"b"}}],"usage":{"prompt_tokens":5,"completion_tokens":2}}

          """;
      assertThat(whole(openAi.newUsageTap("text/event-stream", true), utf8(stream)))
          .isEqualTo(reported(5, 2, 0, 0, "m"));
    }
  }

  @Nested
  class ContentTypes {

    @Test
    void withoutAContentTypeTheRequestsStreamFlagDecides() {
      assertThat(whole(openAi.newUsageTap(null, true), Fixtures.bytes("streams/openai-chat-usage.sse")).source())
          .isEqualTo(UsageSource.REPORTED);
      assertThat(whole(openAi.newUsageTap("", false), Fixtures.bytes("responses/openai-chat.json")).source())
          .isEqualTo(UsageSource.REPORTED);
    }

    @Test
    void anUnhelpfulContentTypeIsSniffedFromTheFirstByte() {
      assertThat(whole(openAi.newUsageTap("text/plain", false), Fixtures.bytes("streams/openai-chat-usage.sse")))
          .isEqualTo(reported(42, 17, 0, 0, "gpt-4o-2024-08-06"));
      assertThat(whole(openAi.newUsageTap("application/octet-stream", true), Fixtures.bytes("responses/openai-chat.json")))
          .isEqualTo(reported(1117, 46, 1024, 0, "gpt-4o-2024-08-06"));
      assertThat(whole(openAi.newUsageTap("text/html", false), utf8("<html><body>502 Bad Gateway</body></html>")))
          .isEqualTo(Usage.unknown());
    }

    @Test
    void aJsonBodyUnderAnSseContentTypeIsUnknownNotAnError() {
      assertThat(whole(openAi.newUsageTap("text/event-stream", true), Fixtures.bytes("responses/openai-chat.json")))
          .isEqualTo(Usage.unknown());
    }
  }
}
