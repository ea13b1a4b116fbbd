package io.tollgate.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.llm.Headers;
import io.tollgate.llm.LlmProtocol;
import io.tollgate.llm.ProviderApi;
import io.tollgate.llm.ProviderSignals;
import io.tollgate.llm.Usage;
import io.tollgate.llm.UsageSource;
import io.tollgate.llm.UsageTappingInputStream;
import io.tollgate.testkit.hostile.HostileBytes;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * Malformed JSON and SSE from a provider never break the app's call: every byte reaches the app
 * unchanged, in any read sizes, the usage is reported once, and nothing throws.
 */
class HostileResponsesTest {

  record Seed(String path, ProviderApi api, String contentType) {
    @Override
    public String toString() {
      return path;
    }
  }

  record Hostile(Seed seed, byte[] bytes) {
    @Override
    public String toString() {
      return seed + " mutated to " + bytes.length + " bytes";
    }
  }

  private static final List<Seed> SEEDS = List.of(
      new Seed("llm/streams/openai-chat-usage.sse", ProviderApi.OPENAI, "text/event-stream"),
      new Seed("llm/streams/openai-chat-tool-calls.sse", ProviderApi.OPENAI, "text/event-stream"),
      new Seed("llm/streams/openai-responses.sse", ProviderApi.OPENAI, "text/event-stream"),
      new Seed("llm/streams/azure-chat-usage.sse", ProviderApi.AZURE_OPENAI, "text/event-stream"),
      new Seed("llm/streams/anthropic-tool-use.sse", ProviderApi.ANTHROPIC, "text/event-stream"),
      new Seed("llm/streams/anthropic-overloaded.sse", ProviderApi.ANTHROPIC, "text/event-stream"),
      new Seed("llm/responses/openai-chat.json", ProviderApi.OPENAI, "application/json"),
      new Seed("llm/responses/openai-responses.json", ProviderApi.OPENAI, "application/json"),
      new Seed("llm/responses/anthropic-message.json", ProviderApi.ANTHROPIC, "application/json"),
      new Seed("llm/responses/openai-embeddings.json", ProviderApi.OPENAI, "application/json"),
      // a body labelled as neither: sniffed from its first byte
      new Seed("llm/streams/openai-chat-usage.sse", ProviderApi.OPENAI, "application/octet-stream"),
      new Seed("llm/responses/openai-chat.json", ProviderApi.OPENAI, null));

  @Provide
  Arbitrary<Hostile> responses() {
    return Arbitraries.of(SEEDS).flatMap(seed ->
        Arbitraries.randoms().map(random ->
            new Hostile(seed, HostileBytes.mutate(Resources.bytes(seed.path()), random))));
  }

  @Provide
  Arbitrary<Hostile> errorBodies() {
    Seed error = new Seed("llm/responses/openai-error-rate-limit.json", ProviderApi.OPENAI, "application/json");
    return Arbitraries.of(ProviderApi.values()).flatMap(api -> Arbitraries.randoms().map(random ->
        new Hostile(new Seed(error.path(), api, error.contentType()),
            HostileBytes.mutate(Resources.bytes(error.path()), random))));
  }

  @Property(tries = 4000, seed = "20261203")
  void everyByteReachesTheAppUnchangedAndTheUsageIsToldOnce(
      @ForAll("responses") Hostile response, @ForAll @IntRange(min = 1, max = 4096) int readSize)
      throws IOException {
    LlmProtocol protocol = LlmProtocol.of(response.seed().api());
    boolean streaming = "text/event-stream".equals(response.seed().contentType());
    List<Usage> told = new ArrayList<>();
    ByteArrayOutputStream app = new ByteArrayOutputStream();

    try (UsageTappingInputStream in = UsageTappingInputStream.of(new ByteArrayInputStream(response.bytes()),
        protocol.newUsageTap(response.seed().contentType(), streaming), told::add)) {
      byte[] buffer = new byte[readSize];
      for (int n; (n = readSize == 1 ? single(in, buffer) : in.read(buffer, 0, readSize)) >= 0; ) {
        app.write(buffer, 0, n);
      }
    }

    assertThat(app.toByteArray()).isEqualTo(response.bytes());
    assertThat(told).hasSize(1);
    Usage usage = told.get(0);
    if (usage.source() == UsageSource.UNKNOWN) {
      assertThat(usage.inputTokens() + usage.outputTokens()).isZero();
    }
  }

  @Property(tries = 1500, seed = "20261203")
  void hostileErrorBodiesAndHeadersAreReadWithoutThrowing(
      @ForAll("errorBodies") Hostile error,
      @ForAll("statuses") int status,
      @ForAll("headerValues") String retryAfter,
      @ForAll("headerValues") String remaining,
      @ForAll("headerValues") String reset) {
    Headers headers = Headers.of("retry-after", retryAfter, "retry-after-ms", remaining,
        "x-ratelimit-remaining-requests", remaining, "x-ratelimit-reset-tokens", reset,
        "anthropic-ratelimit-tokens-reset", reset, "content-type", "application/json");

    ProviderSignals signals = LlmProtocol.of(error.seed().api()).signals(status, headers, error.bytes());

    assertThat(signals).isNotNull();
    signals.suggestedWait().ifPresent(wait -> assertThat(wait.isNegative()).isFalse());
  }

  @Provide
  Arbitrary<Integer> statuses() {
    return Arbitraries.oneOf(Arbitraries.of(200, 400, 401, 403, 404, 408, 409, 413, 429, 500, 502, 503, 504, 529),
        Arbitraries.integers().between(-1, 1000));
  }

  @Provide
  Arbitrary<String> headerValues() {
    return Arbitraries.oneOf(
        Arbitraries.of("", "0", "-1", "1.5", "NaN", "Infinity", "1e309", "9223372036854775807",
            "99999999999999999999", "6m0s", "1h2m3.5s", "20ms", "-3s", "Wed, 21 Oct 2015 07:28:00 GMT",
            "Fri, 31 Dec 9999 23:59:59 GMT", "2024-01-01T00:00:00Z", "garbage"),
        Arbitraries.strings().ofMaxLength(64));
  }

  /** One byte at a time through {@code read()}, as some apps read. */
  private static int single(UsageTappingInputStream in, byte[] buffer) throws IOException {
    int b = in.read();
    if (b < 0) {
      return -1;
    }
    buffer[0] = (byte) b;
    return 1;
  }
}
