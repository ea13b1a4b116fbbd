package io.tollgate.router;

import static io.tollgate.router.RewriteFixtures.ANTHROPIC;
import static io.tollgate.router.RewriteFixtures.AZURE;
import static io.tollgate.router.RewriteFixtures.AZURE_BACKUP;
import static io.tollgate.router.RewriteFixtures.BACKUP;
import static io.tollgate.router.RewriteFixtures.CLAUDE_BACKUP;
import static io.tollgate.router.RewriteFixtures.OPENAI;
import static io.tollgate.router.RewriteFixtures.REWRITER;
import static io.tollgate.router.RewriteFixtures.post;
import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.llm.Headers;
import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A rerouted request keeps only the headers and query parameters known to be safe, plus the
 * fallback's own credential: a credential the rewrite has never heard of stays behind as surely as
 * {@code Authorization}.
 */
class RerouteAllowListTest {

  /** Every header an app or its gateway may send, credentials of all kinds among them. */
  private static final Headers EVERYTHING = Headers.of(
      "Content-Type", "application/json",
      "Accept", "text/event-stream",
      "Accept-Encoding", "gzip",
      "User-Agent", "OpenAI/Java 4.1.0",
      "OpenAI-Beta", "assistants=v2",
      "traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
      "tracestate", "vendor=1",
      "Authorization", "Bearer sk-app-own",
      "api-key", "az-app-own",
      "x-api-key", "sk-ant-app-own",
      "cf-aig-authorization", "Bearer cf-secret",
      "helicone-auth", "Bearer helicone-secret",
      "x-goog-api-key", "goog-secret",
      "X-My-Gateway-Key", "gateway-secret",
      "Ocp-Apim-Subscription-Key", "apim-secret",
      "Proxy-Authorization", "Basic proxy-secret",
      "Cookie", "session=cookie-secret",
      "OpenAI-Organization", "org-primary",
      "OpenAI-Project", "proj-primary",
      "X-Request-Id", "r-1",
      "Idempotency-Key", "i-1",
      "Host", "api.openai.com",
      "Content-Length", "17",
      "Transfer-Encoding", "chunked");

  private static final List<String> SECRETS = List.of("sk-app-own", "az-app-own", "sk-ant-app-own",
      "cf-secret", "helicone-secret", "goog-secret", "gateway-secret", "apim-secret", "proxy-secret",
      "cookie-secret", "org-primary", "proj-primary");

  @Test
  void openAiToOpenAiKeepsExactlyTheSafeHeadersThenTheFallbacksKey() {
    OutboundRequest rewritten = REWRITER.rewrite(
        post("https://api.openai.com/v1/chat/completions", EVERYTHING, "{\"model\":\"gpt-4o\"}"),
        OPENAI, BACKUP).request();

    assertThat(rewritten.headers()).isEqualTo(Headers.of(
        "Content-Type", "application/json",
        "Accept", "text/event-stream",
        "Accept-Encoding", "gzip",
        "User-Agent", "OpenAI/Java 4.1.0",
        "OpenAI-Beta", "assistants=v2",
        "traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
        "tracestate", "vendor=1",
        "X-Request-Id", "r-1",
        "Authorization", "Bearer sk-backup"));
    assertThat(rewritten.headers().fields()).extracting(Headers.Field::value)
        .noneMatch(value -> SECRETS.stream().anyMatch(value::contains));
  }

  @Test
  void openAiToAzureKeepsTheSafeHeadersAndSetsOnlyTheFallbacksApiKey() {
    OutboundRequest rewritten = REWRITER.rewrite(
        post("https://api.openai.com/v1/chat/completions", EVERYTHING, "{\"model\":\"gpt-4o\"}"),
        OPENAI, AZURE).request();

    assertThat(rewritten.headers().names()).containsExactly("content-type", "accept", "accept-encoding",
        "user-agent", "openai-beta", "traceparent", "tracestate", "x-request-id", "api-key");
    assertThat(rewritten.headers().all("api-key")).containsExactly("az-contoso");
  }

  @Test
  void anthropicToAnthropicKeepsTheVersionAndBetaHeadersOnly() {
    OutboundRequest rewritten = REWRITER.rewrite(post("https://api.anthropic.com/v1/messages",
        Headers.of("x-api-key", "sk-ant-app-own", "anthropic-version", "2023-06-01",
            "anthropic-beta", "prompt-caching-2024-07-31", "helicone-auth", "Bearer helicone-secret",
            "anthropic-dangerous-direct-browser-access", "true", "content-type", "application/json"),
        "{\"model\":\"claude-sonnet-4-5\"}"), ANTHROPIC, CLAUDE_BACKUP).request();

    assertThat(rewritten.headers()).isEqualTo(Headers.of(
        "anthropic-version", "2023-06-01", "anthropic-beta", "prompt-caching-2024-07-31",
        "content-type", "application/json", "x-api-key", "sk-ant-backup"));
  }

  @Test
  void aConfiguredCredentialHeaderStaysBehindEvenWhenTheAllowListNamesIt() {
    RequestRewriter rewriter = RequestRewriter.of(CrossOriginHeaders.of(List.of("X-My-Gateway-Key", "User-Agent")));

    OutboundRequest rewritten = rewriter.rewrite(post("https://api.openai.com/v1/chat/completions",
        Headers.of("Content-Type", "application/json", "User-Agent", "app/1 token=ua-secret",
            "x-my-gateway-key", "gateway-secret"), "{}"), OPENAI, BACKUP).request();

    assertThat(rewritten.headers()).isEqualTo(Headers.of(
        "Content-Type", "application/json", "Authorization", "Bearer sk-backup"));
  }

  @Test
  void credentialsInTheQueryStayBehindAndOnlyKnownParametersGo() {
    OutboundRequest toOpenAi = REWRITER.rewrite(post(
        "https://api.openai.com/v1/chat/completions?api-key=q1&key=q2&subscription-key=q3&code=q4&beta=true&trace=1",
        Headers.of("Content-Type", "application/json"), "{}"), OPENAI, BACKUP).request();
    assertThat(toOpenAi.uri()).isEqualTo(URI.create("http://127.0.0.1:9002/v1/chat/completions?beta=true"));

    OutboundRequest azureToAzure = REWRITER.rewrite(post(
        "https://contoso.openai.azure.com/openai/deployments/gpt4o-prod/chat/completions"
            + "?code=q4&api-version=2024-06-01&subscription-key=q3&api-key=q1",
        Headers.of("api-key", "az-app-own"), "{}"), AZURE, AZURE_BACKUP).request();
    assertThat(azureToAzure.uri()).isEqualTo(URI.create("https://fabrikam.openai.azure.com/openai/deployments/"
        + "gpt4o-standby/chat/completions?api-version=2024-06-01"));

    OutboundRequest azureToOpenAi = REWRITER.rewrite(post(
        "https://contoso.openai.azure.com/openai/deployments/gpt-4o/chat/completions?api-version=2024-06-01&key=q2",
        Headers.of("api-key", "az-app-own"), "{}"), AZURE, BACKUP).request();
    assertThat(azureToOpenAi.uri()).isEqualTo(URI.create("http://127.0.0.1:9002/v1/chat/completions"));

    OutboundRequest openAiToAzure = REWRITER.rewrite(post(
        "https://api.openai.com/v1/chat/completions?key=q2", Headers.of(), "{\"model\":\"gpt-4o\"}"),
        OPENAI, AZURE).request();
    assertThat(openAiToAzure.uri()).isEqualTo(URI.create("https://contoso.openai.azure.com/openai/deployments/"
        + "gpt4o-prod/chat/completions?api-version=2024-10-21"));
  }

  @Test
  void theProviderTheAppAddressedGetsEveryHeaderAndTheQueryAsWritten() {
    OutboundRequest request = post("https://api.openai.com/v1/chat/completions?key=q2", EVERYTHING, "{}");

    assertThat(REWRITER.rewrite(request, OPENAI, OPENAI).request()).isSameAs(request);
  }

  @Test
  void onTheWireTheFramingOfTheMessageMayLeaveTooButNoCredential() {
    CrossOriginHeaders leaving = CrossOriginHeaders.of(List.of("x-my-gateway-key"));

    assertThat(EVERYTHING.names()).filteredOn(leaving::mayLeaveOnTheWire).containsExactly(
        "content-type", "accept", "accept-encoding", "user-agent", "openai-beta", "traceparent",
        "tracestate", "x-request-id", "host", "content-length", "transfer-encoding");
    assertThat(leaving.mayLeaveOnTheWire("Connection")).isTrue();
    assertThat(leaving.mayLeaveOnTheWire("X-MY-GATEWAY-KEY")).isFalse();
  }

  @Test
  void sameOriginComparesSchemeHostAndPortWithDefaultPorts() {
    URI base = URI.create("https://api.openai.com/v1/chat/completions");
    assertThat(CrossOriginHeaders.sameOrigin(base, URI.create("HTTPS://API.OPENAI.COM:443/v1/files"))).isTrue();
    assertThat(CrossOriginHeaders.sameOrigin(base, URI.create("http://api.openai.com/v1"))).isFalse();
    assertThat(CrossOriginHeaders.sameOrigin(base, URI.create("https://api.openai.com:8443/v1"))).isFalse();
    assertThat(CrossOriginHeaders.sameOrigin(base, URI.create("https://files.openai.com/v1"))).isFalse();
  }
}
