package io.tollgate.gate;

import static io.tollgate.gate.GateTestSupport.config;
import static io.tollgate.gate.GateTestSupport.readBody;
import static io.tollgate.gate.GateTestSupport.status;
import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.sdk.trace.data.SpanData;
import io.tollgate.llm.Headers;
import io.tollgate.router.OutboundRequest;
import io.tollgate.router.StreamedBody;
import io.tollgate.telemetry.TelemetryCapture;
import io.tollgate.telemetry.TollgateAttributes;
import io.tollgate.testkit.llm.Fault;
import io.tollgate.testkit.llm.MockLlmServer;
import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Bodies Tollgate does not hold whole: a request held only in part is reserved by what is known
 * before it is sent and settled by every byte sent; a failed response a transport cannot hold is
 * the answer, and no fallback is tried.
 */
class GateStreamedBodyTest {

  private static final String START = "{\"model\":\"gpt-4o\",\"max_tokens\":300,"
      + "\"messages\":[{\"role\":\"user\",\"content\":\"";
  private static final String END = "\"}]}";

  private final TelemetryCapture capture = new TelemetryCapture();
  private MockLlmServer primary;
  private MockLlmServer backup;

  @BeforeEach
  void start() {
    primary = MockLlmServer.start();
    backup = MockLlmServer.start();
  }

  @AfterEach
  void stop() {
    primary.close();
    backup.close();
    capture.close();
  }

  private Gate gate() {
    return Gate.builder(config("""
        tollgate:
          providers:
            primary:
              base-url: %s
              limits: { tokens-per-minute: 10000000 }
              fallbacks: [backup]
            backup:
              base-url: %s
              api-key: sk-backup
        """.formatted(primary.baseUrl(), backup.baseUrl()), Map.of()))
        .openTelemetry(capture.sdk()).build();
  }

  @Test
  void aBodyHeldInPartIsReservedByTheBytesReadAndSettledByEveryByteSent() throws Exception {
    primary.script().next(1, Fault.malformedJson()); // no usage: the settle is Tollgate's estimate
    byte[] body = chat(300_000);
    byte[] prefix = Arrays.copyOf(body, 1025); // what a front end holding 1 KiB reads: one byte more
    StreamedBody streamed = StreamedBody.ofUnknownLength();
    streamed.passed(prefix.length);
    OutboundRequest request = OutboundRequest.withHeldPrefix("POST",
        URI.create(primary.baseUrl() + "/v1/chat/completions"),
        Headers.of("Authorization", "Bearer sk-app", "Content-Type", "application/json"),
        prefix, streamed);

    try (Gate gate = gate()) {
      CallResult<HttpResponse<InputStream>> result =
          gate.call(request, false, new RestStreamingTransport(body, prefix.length, streamed));
      assertThat(status(result)).isEqualTo(200);
      readBody(result);
    }

    assertThat(primary.requests()).singleElement()
        .satisfies(r -> assertThat(r.body()).isEqualTo(body));
    SpanData call = capture.span("tollgate.call");
    assertThat(call.getAttributes().get(TollgateAttributes.GEN_AI_REQUEST_MODEL)).isEqualTo("gpt-4o");
    assertThat(call.getAttributes().get(TollgateAttributes.TOKENS_RESERVED))
        .as("the 1,025 bytes read, / 4 rounded up, and max_tokens").isEqualTo(257 + 300);
    assertThat(call.getAttributes().get(TollgateAttributes.TOKENS_SETTLED))
        .as("every byte sent, / 4 rounded up, and max_tokens").isEqualTo((body.length + 3) / 4 + 300);
  }

  @Test
  void aFailedResponseTheTransportCannotHoldIsTheAnswerAndNoFallbackIsTried() throws Exception {
    primary.script().next(1, Fault.status(500));
    JdkTransport client = new JdkTransport(Duration.ofSeconds(15));
    Transport<HttpResponse<InputStream>> cannotHold = new Transport<>() {
      @Override
      public HttpResponse<InputStream> send(OutboundRequest request) throws IOException {
        return client.send(request);
      }

      @Override
      public int status(HttpResponse<InputStream> response) {
        return client.status(response);
      }

      @Override
      public Headers headers(HttpResponse<InputStream> response) {
        return client.headers(response);
      }

      @Override
      public void discard(HttpResponse<InputStream> response) {
        client.discard(response);
      }

      @Override
      public boolean hold(HttpResponse<InputStream> response) {
        return false;
      }
    };

    try (Gate gate = gate()) {
      CallResult<HttpResponse<InputStream>> result = gate.call(GateTestSupport.chat(
          primary.baseUrl(), "sk-app", GateTestSupport.CHAT), true, cannotHold);

      assertThat(result.provider()).isEqualTo("primary");
      assertThat(status(result)).isEqualTo(500);
      readBody(result);
    }
    assertThat(backup.requestCount()).isZero();
    assertThat(capture.span("tollgate.call").getAttributes().get(TollgateAttributes.DECISION))
        .isEqualTo("upstream_error");
  }

  /** A chat request of exactly {@code size} bytes. */
  private static byte[] chat(int size) {
    int filler = size - START.length() - END.length();
    return (START + "a ".repeat(filler / 2) + "b".repeat(filler % 2) + END)
        .getBytes(StandardCharsets.US_ASCII);
  }

  /**
   * Sends the held bytes, then the rest of the body as a client streams it, each byte of the rest
   * counted as it is taken, as a front end counts the app's body.
   */
  private static final class RestStreamingTransport implements Transport<HttpResponse<InputStream>> {
    private final JdkTransport client = new JdkTransport(Duration.ofSeconds(15));
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final byte[] body;
    private final int held;
    private final StreamedBody streamed;

    RestStreamingTransport(byte[] body, int held, StreamedBody streamed) {
      this.body = body;
      this.held = held;
      this.streamed = streamed;
    }

    @Override
    public HttpResponse<InputStream> send(OutboundRequest request) throws IOException {
      InputStream rest = new FilterInputStream(new ByteArrayInputStream(body, held, body.length - held)) {
        @Override
        public int read(byte[] b, int off, int len) throws IOException {
          int n = super.read(b, off, len);
          streamed.passed(n);
          return n;
        }
      };
      HttpRequest.Builder builder = HttpRequest.newBuilder(request.uri())
          .POST(HttpRequest.BodyPublishers.ofInputStream(
              () -> new SequenceInputStream(new ByteArrayInputStream(request.body()), rest)));
      request.headers().fields().forEach(f -> builder.header(f.name(), f.value()));
      try {
        return http.send(builder.build(), HttpResponse.BodyHandlers.ofInputStream());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException(e);
      }
    }

    @Override
    public int status(HttpResponse<InputStream> response) {
      return client.status(response);
    }

    @Override
    public Headers headers(HttpResponse<InputStream> response) {
      return client.headers(response);
    }

    @Override
    public void discard(HttpResponse<InputStream> response) {
      client.discard(response);
    }
  }
}
