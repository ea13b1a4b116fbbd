package io.tollgate.llm;

import static io.tollgate.llm.Fixtures.randomChunks;
import static io.tollgate.llm.Fixtures.splitAt;
import static io.tollgate.llm.Fixtures.utf8;
import static io.tollgate.llm.Fixtures.whole;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A tap must give the same answer however the bytes are cut, must never throw into the app, and
 * must answer "unknown" (or an estimate, never a wrong report) for what it cannot read.
 */
class UsageTapRobustnessTest {

  /** The figures below are the tokenizer's own: counted once its encodings are loaded. */
  @BeforeAll
  static void encodingsLoaded() {
    TokenCounter.awaitLoaded(Duration.ofSeconds(30));
  }

  record Body(String fixture, ProviderApi api, String contentType) {
    UsageTap tap() {
      return LlmProtocol.of(api).newUsageTap(contentType, contentType.contains("event-stream"));
    }

    byte[] bytes() {
      return Fixtures.bytes(fixture);
    }

    @Override
    public String toString() {
      return fixture;
    }
  }

  static Stream<Body> streams() {
    return Stream.of(
        new Body("streams/openai-chat-usage.sse", ProviderApi.OPENAI, "text/event-stream"),
        new Body("streams/openai-chat-no-usage.sse", ProviderApi.OPENAI, "text/event-stream"),
        new Body("streams/openai-chat-tool-calls.sse", ProviderApi.OPENAI, "text/event-stream"),
        new Body("streams/azure-chat-usage.sse", ProviderApi.AZURE_OPENAI, "text/event-stream"),
        new Body("streams/openai-responses.sse", ProviderApi.OPENAI, "text/event-stream"),
        new Body("streams/anthropic-text.sse", ProviderApi.ANTHROPIC, "text/event-stream"),
        new Body("streams/anthropic-tool-use.sse", ProviderApi.ANTHROPIC, "text/event-stream"),
        new Body("streams/anthropic-overloaded.sse", ProviderApi.ANTHROPIC, "text/event-stream"));
  }

  static Stream<Body> jsonBodies() {
    return Stream.of(
        new Body("responses/openai-chat.json", ProviderApi.OPENAI, "application/json"),
        new Body("responses/openai-chat-tool-calls.json", ProviderApi.OPENAI, "application/json"),
        new Body("responses/compatible-chat-no-usage.json", ProviderApi.OPENAI, "application/json"),
        new Body("responses/openai-responses.json", ProviderApi.OPENAI, "application/json"),
        new Body("responses/anthropic-message.json", ProviderApi.ANTHROPIC, "application/json"),
        new Body("responses/openai-embeddings.json", ProviderApi.OPENAI, "application/json"));
  }

  static Stream<Body> allBodies() {
    return Stream.concat(streams(), jsonBodies());
  }

  @Nested
  class Splits {

    @ParameterizedTest
    @MethodSource("io.tollgate.llm.UsageTapRobustnessTest#allBodies")
    void theSameUsageWhateverByteTheBodyIsSplitAt(Body body) {
      byte[] bytes = body.bytes();
      Usage expected = whole(body.tap(), bytes);
      assertThat(expected.source()).isNotEqualTo(UsageSource.UNKNOWN);

      for (int at = 0; at <= bytes.length; at++) {
        assertThat(splitAt(body.tap(), bytes, at)).as("split at %d", at).isEqualTo(expected);
      }
    }

    @ParameterizedTest
    @MethodSource("io.tollgate.llm.UsageTapRobustnessTest#allBodies")
    void theSameUsageForRandomMultiSplits(Body body) {
      byte[] bytes = body.bytes();
      Usage expected = whole(body.tap(), bytes);

      for (long seed = 1; seed <= 300; seed++) {
        int maxChunk = 1 + (int) (seed % 64);
        assertThat(randomChunks(body.tap(), bytes, seed, maxChunk)).as("seed %d", seed).isEqualTo(expected);
      }
    }

    @ParameterizedTest
    @MethodSource("io.tollgate.llm.UsageTapRobustnessTest#streams")
    void crlfAndCrLineEndingsReadAsLf(Body body) {
      String lf = Fixtures.text(body.fixture());
      Usage expected = whole(body.tap(), utf8(lf));
      byte[] crlf = utf8(lf.replace("\n", "\r\n"));
      byte[] cr = utf8(lf.replace("\n", "\r"));

      assertThat(whole(body.tap(), cr)).isEqualTo(expected);
      for (int at = 0; at <= crlf.length; at++) {
        assertThat(splitAt(body.tap(), crlf, at)).as("CRLF split at %d", at).isEqualTo(expected);
      }
    }

    @ParameterizedTest
    @MethodSource("io.tollgate.llm.UsageTapRobustnessTest#streams")
    void everyWayOfWritingTheSameEventsReadsTheSame(Body body) {
      String lf = Fixtures.text(body.fixture());
      Usage expected = whole(body.tap(), utf8(lf));

      String noSpace = lf.replace("data: ", "data:");
      String multiLine = lf.lines()
          .map(line -> line.startsWith("data: {") && line.indexOf(',') > 0
              ? line.substring(0, line.indexOf(',') + 1) + "\ndata: " + line.substring(line.indexOf(',') + 1)
              : line)
          .reduce("", (a, b) -> a + b + "\n");
      String comments = ": connected\n\n" + lf.replace("data: ", ": keep-alive\nid: 7\nretry: 3000\ndata: ");
      byte[] bom = utf8("\uFEFF" + lf);
      String noFinalBlankLine = lf.stripTrailing();

      assertThat(whole(body.tap(), utf8(noSpace))).as("data: without its space").isEqualTo(expected);
      assertThat(whole(body.tap(), utf8(multiLine))).as("data split over two lines").isEqualTo(expected);
      assertThat(whole(body.tap(), utf8(comments))).as("comments and other fields").isEqualTo(expected);
      assertThat(whole(body.tap(), bom)).as("a leading BOM").isEqualTo(expected);
      assertThat(whole(body.tap(), utf8(noFinalBlankLine))).as("no blank line at the end").isEqualTo(expected);
    }

    @Test
    void byteBuffersAreReadWithoutMovingThem() {
      byte[] bytes = Fixtures.bytes("streams/anthropic-text.sse");
      UsageTap heap = LlmProtocol.of(ProviderApi.ANTHROPIC).newUsageTap("text/event-stream", true);
      UsageTap direct = LlmProtocol.of(ProviderApi.ANTHROPIC).newUsageTap("text/event-stream", true);
      ByteBuffer wrapped = ByteBuffer.wrap(bytes, 3, bytes.length - 3);
      ByteBuffer offHeap = ByteBuffer.allocateDirect(bytes.length).put(bytes).flip();

      heap.onBytes(ByteBuffer.wrap(bytes, 0, 3));
      heap.onBytes(wrapped);
      heap.onEnd();
      direct.onBytes(offHeap);
      direct.onEnd();

      assertThat(wrapped.position()).isEqualTo(3);
      assertThat(offHeap.position()).isZero();
      assertThat(heap.result()).isEqualTo(whole(LlmProtocol.of(ProviderApi.ANTHROPIC).newUsageTap("text/event-stream", true), bytes));
      assertThat(direct.result()).isEqualTo(heap.result());
    }
  }

  @Nested
  class Truncation {

    @ParameterizedTest
    @MethodSource("io.tollgate.llm.UsageTapRobustnessTest#streams")
    void aCutStreamNeverReportsAWrongFigure(Body body) {
      byte[] bytes = body.bytes();
      Usage full = whole(body.tap(), bytes);

      for (int length = 0; length <= bytes.length; length++) {
        UsageTap tap = body.tap();
        tap.onBytes(bytes, 0, length);
        tap.onError(new java.io.EOFException("connection reset"));
        Usage cut = tap.result();
        if (cut.source() == UsageSource.REPORTED) {
          assertThat(cut).as("cut at %d", length).isEqualTo(full);
        }
      }
    }

    @ParameterizedTest
    @MethodSource("io.tollgate.llm.UsageTapRobustnessTest#jsonBodies")
    void aCutJsonBodyIsUnknownUntilItIsComplete(Body body) {
      byte[] bytes = body.bytes();
      Usage full = whole(body.tap(), bytes);
      int complete = new String(bytes, StandardCharsets.UTF_8).stripTrailing().getBytes(StandardCharsets.UTF_8).length;

      for (int length = 0; length <= bytes.length; length++) {
        UsageTap tap = body.tap();
        tap.onBytes(bytes, 0, length);
        tap.onEnd();
        assertThat(tap.result()).as("cut at %d", length).isEqualTo(length >= complete ? full : Usage.unknown());
      }
    }
  }

  @Nested
  class Garbage {

    @Test
    void randomBytesAreUnknownAndNeverThrow() {
      Random random = new Random(42);
      for (int round = 0; round < 20; round++) {
        byte[] noise = new byte[50_000 + random.nextInt(50_000)];
        random.nextBytes(noise);
        for (String type : new String[] {"text/event-stream", "application/json", "application/octet-stream", null}) {
          UsageTap tap = LlmProtocol.of(ProviderApi.OPENAI).newUsageTap(type, round % 2 == 0);
          assertThat(randomChunks(tap, noise, round, 4096)).isEqualTo(Usage.unknown());
        }
      }
    }

    @Test
    void malformedEventsAreSkippedAndTheRestStillCounts() {
      String stream = "data: {\"choices\":[{\"delta\":{\"content\":\"x\"\n\n"   // broken JSON
          + "data: {not json at all}\n\n"
          + "data: \"just a string\"\n\n"
          + "data: [DONE]\n\n"
          + "data: {\"model\":\"gpt-4o\",\"choices\":[],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":4}}\n\n";

      Usage usage = whole(LlmProtocol.of(ProviderApi.OPENAI).newUsageTap("text/event-stream", true), utf8(stream));

      assertThat(usage).isEqualTo(Usage.reported(3, 4, 0, 0, Optional.of("gpt-4o")));
    }

    @Test
    void strayArgumentsAndLateCallsAreIgnored() {
      UsageTap tap = LlmProtocol.of(ProviderApi.ANTHROPIC).newUsageTap("text/event-stream", true);
      byte[] bytes = Fixtures.bytes("streams/anthropic-text.sse");

      tap.onBytes(null, 0, 10);
      tap.onBytes(bytes, -1, 10);
      tap.onBytes(bytes, 5, bytes.length);
      tap.onBytes(bytes, 0, 0);
      tap.onBytes((ByteBuffer) null);
      tap.onBytes(bytes, 0, bytes.length);
      tap.onEnd();
      tap.onBytes(utf8("data: {\"usage\":{\"output_tokens\":999999}}\n\n"), 0, 40);
      tap.onEnd();
      tap.onError(new IllegalStateException());

      assertThat(tap.result()).isEqualTo(Usage.reported(2125, 15, 2000, 100, Optional.of("claude-sonnet-4-5-20250929")));
    }
  }

  @Nested
  class EnormousBodies {

    @Test
    void aTwentyMegabyteStreamWithoutUsageIsEstimatedFromASample() {
      String event = "data: {\"model\":\"gpt-4o\",\"choices\":[{\"delta\":{\"content\":\" hello\"}}]}\n\n";
      int events = 20_000_000 / event.length();
      UsageTap tap = LlmProtocol.of(ProviderApi.OPENAI).newUsageTap("text/event-stream", true);
      byte[] chunk = utf8(event.repeat(1000));

      for (int i = 0; i < events / 1000; i++) {
        tap.onBytes(chunk, 0, chunk.length);
      }
      tap.onEnd();

      // " hello" is one o200k_base token, so the stream carried one token per event
      long expected = events / 1000 * 1000L;
      assertThat(tap.result().source()).isEqualTo(UsageSource.ESTIMATED);
      assertThat(tap.result().outputTokens()).isBetween(expected * 999 / 1000, expected * 1001 / 1000);
    }

    @Test
    void aTwentyMegabyteEventIsSkippedAndTheFinalUsageStillCounts() {
      ByteArrayOutputStream stream = new ByteArrayOutputStream();
      stream.writeBytes(utf8("data: {\"choices\":[{\"delta\":{\"content\":\""));
      stream.writeBytes(utf8("x".repeat(20_000_000)));
      stream.writeBytes(utf8("\"}}]}\n\ndata: {\"model\":\"gpt-4o\",\"choices\":[],\"usage\":{\"prompt_tokens\":11,\"completion_tokens\":22}}\n\n"));

      Usage usage = randomChunks(LlmProtocol.of(ProviderApi.OPENAI).newUsageTap("text/event-stream", true),
          stream.toByteArray(), 7, 65536);

      assertThat(usage).isEqualTo(Usage.reported(11, 22, 0, 0, Optional.of("gpt-4o")));
    }

    @Test
    void aTwentyMegabyteLineThatNeverEndsIsUnknown() {
      byte[] line = utf8("data: " + "y".repeat(20_000_000));

      assertThat(whole(LlmProtocol.of(ProviderApi.OPENAI).newUsageTap("text/event-stream", true), line))
          .isEqualTo(Usage.unknown());
    }

    @Test
    void aTwentyMegabyteJsonStringBeyondTheCapMakesTheBodyUnknown() {
      byte[] body = utf8("{\"model\":\"gpt-4o\",\"choices\":[{\"message\":{\"content\":\"" + "z".repeat(20_000_000)
          + "\"}}],\"usage\":{\"prompt_tokens\":1,\"completion_tokens\":2}}");

      // A document that cannot be read counts for nothing, not even the model it named.
      assertThat(whole(LlmProtocol.of(ProviderApi.OPENAI).newUsageTap("application/json", false), body))
          .isEqualTo(Usage.unknown());
    }

    @Test
    void aTwentyMegabyteEmbeddingsBodyIsReadWithoutBufferingIt() {
      StringBuilder json = new StringBuilder("{\"object\":\"list\",\"data\":[");
      for (int i = 0; json.length() < 20_000_000; i++) {
        json.append(i == 0 ? "" : ",").append("{\"object\":\"embedding\",\"index\":").append(i)
            .append(",\"embedding\":[0.0023064255,-0.009327292,-0.0028842222,0.015658474,-0.0123817]}");
      }
      json.append("],\"model\":\"text-embedding-3-large\",\"usage\":{\"prompt_tokens\":123456,\"total_tokens\":123456}}");

      Usage usage = randomChunks(LlmProtocol.of(ProviderApi.OPENAI).newUsageTap("application/json", false),
          utf8(json.toString()), 3, 65536);

      assertThat(usage).isEqualTo(Usage.reported(123456, 0, 0, 0, Optional.of("text-embedding-3-large")));
    }
  }
}
