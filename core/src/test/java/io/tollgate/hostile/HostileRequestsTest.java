package io.tollgate.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.llm.LlmProtocol;
import io.tollgate.llm.LlmRequest;
import io.tollgate.llm.ProviderApi;
import io.tollgate.llm.TokenEstimate;
import io.tollgate.testkit.hostile.HostileBytes;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Whatever an app or its caller puts in a request body, reading it never throws and its estimate
 * is a cost the limiter can charge: within 0..{@link TokenEstimate#MAX_TOKENS}, never overflowing
 * into a negative or wrapped figure that would let the call through unlimited.
 */
class HostileRequestsTest {

  private static final long DEFAULT_MAX_OUTPUT = 1024;

  record Seed(String path, ProviderApi api, String endpoint) {
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
      new Seed("llm/requests/chat-cookbook.json", ProviderApi.OPENAI, "/v1/chat/completions"),
      new Seed("llm/requests/chat-tools-cookbook.json", ProviderApi.OPENAI, "/v1/chat/completions"),
      new Seed("llm/requests/responses-items.json", ProviderApi.OPENAI, "/v1/responses"),
      new Seed("llm/requests/chat-cookbook.json", ProviderApi.AZURE_OPENAI,
          "/openai/deployments/gpt-4o/chat/completions?api-version=2024-10-21"),
      new Seed("llm/requests/anthropic-messages.json", ProviderApi.ANTHROPIC, "/v1/messages"),
      new Seed("llm/requests/anthropic-tools-cookbook.json", ProviderApi.ANTHROPIC, "/v1/messages"));

  @Provide
  Arbitrary<Hostile> requests() {
    return Arbitraries.of(SEEDS).flatMap(seed ->
        Arbitraries.randoms().map(random ->
            new Hostile(seed, HostileBytes.mutate(Resources.bytes(seed.path()), random))));
  }

  @Property(tries = 4000, seed = "20261203")
  void aHostileBodyIsReadToAChargeableEstimate(@ForAll("requests") Hostile request) {
    byte[] copy = request.bytes().clone();

    LlmRequest read = LlmProtocol.of(request.seed().api())
        .readRequest(request.seed().endpoint(), request.bytes(), DEFAULT_MAX_OUTPUT);

    TokenEstimate estimate = read.estimate();
    assertThat(estimate.promptTokens()).isBetween(0L, TokenEstimate.MAX_TOKENS);
    assertThat(estimate.outputTokens()).isBetween(0L, TokenEstimate.MAX_TOKENS);
    assertThat(estimate.totalTokens()).isBetween(0L, TokenEstimate.MAX_TOKENS);
    read.maxOutputTokens().ifPresent(max -> assertThat(max).isNotNegative());
    assertThat(request.bytes()).isEqualTo(copy); // read, never changed
  }

  @Property(tries = 500, seed = "20261203")
  void hostilePathsAreReadWithoutThrowing(@ForAll("requests") Hostile request, @ForAll("paths") String path) {
    LlmRequest read = LlmProtocol.of(request.seed().api()).readRequest(path, request.bytes(), DEFAULT_MAX_OUTPUT);

    assertThat(read.estimate().totalTokens()).isBetween(0L, TokenEstimate.MAX_TOKENS);
  }

  @Provide
  Arbitrary<String> paths() {
    return Arbitraries.oneOf(
        Arbitraries.of("", "/", "?", "//", "/openai/deployments/", "/openai/deployments//chat/completions",
            "/openai/deployments/%2e%2e/chat/completions", "/v1/chat/completions?api-key=x&api-key=y",
            "https://[::1]:99999/v1/messages", "/v1/" + "a/".repeat(5000), "\u0000/v1/responses"),
        Arbitraries.strings().ofMaxLength(200));
  }
}
