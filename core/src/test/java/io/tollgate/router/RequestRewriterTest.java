package io.tollgate.router;

import io.tollgate.llm.Headers;
import static io.tollgate.router.RewriteFixtures.ANTHROPIC;
import static io.tollgate.router.RewriteFixtures.AZURE;
import static io.tollgate.router.RewriteFixtures.AZURE_BACKUP;
import static io.tollgate.router.RewriteFixtures.BACKUP;
import static io.tollgate.router.RewriteFixtures.CLAUDE_BACKUP;
import static io.tollgate.router.RewriteFixtures.GATEWAY;
import static io.tollgate.router.RewriteFixtures.OPENAI;
import static io.tollgate.router.RewriteFixtures.REWRITER;
import static io.tollgate.router.RewriteFixtures.body;
import static io.tollgate.router.RewriteFixtures.post;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import org.junit.jupiter.api.Test;

/** What a request looks like after it is sent to a fallback, per pair of APIs. */
class RequestRewriterTest {

  @Test
  void openAiToOpenAiMovesHostAndKeyAndMapsTheModel() {
    OutboundRequest request = post("https://api.openai.com/v1/chat/completions?trace=1",
        Headers.of("Content-Type", "application/json", "Authorization", "Bearer sk-app-own",
            "Host", "api.openai.com", "Content-Length", "44", "X-Request-Id", "r-1"),
        "{\"model\":\"gpt-4o\",\"messages\":[],\"n\":1}");

    RewrittenRequest rewritten = REWRITER.rewrite(request, OPENAI, BACKUP);

    assertThat(rewritten.request().method()).isEqualTo("POST");
    // only known-safe headers and query parameters go to another provider (RerouteAllowListTest)
    assertThat(rewritten.request().uri()).isEqualTo(URI.create("http://127.0.0.1:9002/v1/chat/completions"));
    assertThat(rewritten.request().headers()).isEqualTo(Headers.of(
        "Content-Type", "application/json", "X-Request-Id", "r-1", "Authorization", "Bearer sk-backup"));
    assertThat(body(rewritten.request())).isEqualTo("{\"model\":\"gpt-4o-mini\",\"messages\":[],\"n\":1}");
    assertThat(rewritten.model()).contains("gpt-4o-mini");
    assertThat(rewritten.rewritten()).isTrue();
  }

  @Test
  void aBasePathIsReplacedByTheTargetsOwn() {
    OutboundRequest toGateway = REWRITER.rewrite(
        RewriteFixtures.openAiChat("{\"model\":\"gpt-4o\"}"), OPENAI, GATEWAY).request();
    assertThat(toGateway.uri()).isEqualTo(URI.create("https://gw.example.com/openai/v1/chat/completions"));
    assertThat(body(toGateway)).isEqualTo("{\"model\":\"gpt-4o\"}"); // not in the gateway's map

    OutboundRequest fromGateway = REWRITER.rewrite(post("https://gw.example.com/openai/v1/embeddings",
        Headers.of("Authorization", "Bearer sk-app-own"), "{\"model\":\"gpt-4o\"}"), GATEWAY, BACKUP).request();
    assertThat(fromGateway.uri()).isEqualTo(URI.create("http://127.0.0.1:9002/v1/embeddings"));
  }

  @Test
  void openAiToAzureMovesTheModelIntoTheDeploymentPath() {
    RewrittenRequest rewritten = REWRITER.rewrite(
        RewriteFixtures.openAiChat("{\"model\":\"gpt-4o\",\"messages\":[]}"), OPENAI, AZURE);

    assertThat(rewritten.request().uri()).isEqualTo(URI.create(
        "https://contoso.openai.azure.com/openai/deployments/gpt4o-prod/chat/completions?api-version=2024-10-21"));
    assertThat(rewritten.request().headers()).isEqualTo(Headers.of(
        "Content-Type", "application/json", "api-key", "az-contoso"));
    assertThat(body(rewritten.request())).isEqualTo("{\"model\":\"gpt4o-prod\",\"messages\":[]}");
    assertThat(rewritten.model()).contains("gpt4o-prod");
  }

  @Test
  void azureToOpenAiPutsTheDeploymentInTheBodyAsTheModel() {
    OutboundRequest request = post(
        "https://contoso.openai.azure.com/openai/deployments/gpt-4o/chat/completions?api-version=2024-06-01",
        Headers.of("api-key", "az-app-own", "Content-Type", "application/json"),
        "{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");

    RewrittenRequest rewritten = REWRITER.rewrite(request, AZURE, BACKUP);

    assertThat(rewritten.request().uri()).isEqualTo(URI.create("http://127.0.0.1:9002/v1/chat/completions"));
    assertThat(rewritten.request().headers()).isEqualTo(Headers.of(
        "Content-Type", "application/json", "Authorization", "Bearer sk-backup"));
    assertThat(body(rewritten.request()))
        .isEqualTo("{\"model\":\"gpt-4o-mini\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
    assertThat(rewritten.model()).contains("gpt-4o-mini");
  }

  @Test
  void azureToOpenAiReplacesAModelTheBodyAlreadyNames() {
    OutboundRequest request = post("https://contoso.openai.azure.com/openai/deployments/gpt-4o/embeddings?api-version=2024-06-01",
        Headers.of("api-key", "az-app-own"), "{ \"input\": \"x\", \"model\": \"whatever\" }");

    OutboundRequest rewritten = REWRITER.rewrite(request, AZURE, BACKUP).request();

    assertThat(rewritten.uri()).isEqualTo(URI.create("http://127.0.0.1:9002/v1/embeddings"));
    assertThat(body(rewritten)).isEqualTo("{ \"input\": \"x\", \"model\": \"gpt-4o-mini\" }");
  }

  @Test
  void azureToAzureMapsTheDeploymentAndKeepsTheApiVersion() {
    OutboundRequest request = post(
        "https://contoso.openai.azure.com/openai/deployments/gpt4o-prod/chat/completions?api-version=2024-06-01&x=y",
        Headers.of("API-Key", "az-app-own", "Content-Type", "application/json"), "{\"messages\":[]}");

    RewrittenRequest rewritten = REWRITER.rewrite(request, AZURE, AZURE_BACKUP);

    assertThat(rewritten.request().uri()).isEqualTo(URI.create(
        "https://fabrikam.openai.azure.com/openai/deployments/gpt4o-standby/chat/completions?api-version=2024-06-01"));
    assertThat(rewritten.request().headers()).isEqualTo(Headers.of(
        "Content-Type", "application/json", "api-key", "az-fabrikam"));
    assertThat(body(rewritten.request())).isEqualTo("{\"messages\":[]}");
    assertThat(rewritten.model()).contains("gpt4o-standby");
  }

  @Test
  void azureToAzureAddsTheDefaultApiVersionWhenThereIsNone() {
    OutboundRequest request = post("https://contoso.openai.azure.com/openai/deployments/other/completions",
        Headers.of("api-key", "az-app-own"), "{}");

    assertThat(REWRITER.rewrite(request, AZURE, AZURE_BACKUP).request().uri()).isEqualTo(URI.create(
        "https://fabrikam.openai.azure.com/openai/deployments/other/completions?api-version=2024-10-21"));
  }

  @Test
  void anthropicToAnthropicSetsTheTargetsKeyAndKeepsTheVersionHeaders() {
    OutboundRequest request = post("https://api.anthropic.com/v1/messages",
        Headers.of("x-api-key", "sk-ant-app-own", "anthropic-version", "2023-06-01",
            "anthropic-beta", "prompt-caching-2024-07-31", "content-type", "application/json"),
        "{\"model\":\"claude-sonnet-4-5\",\"max_tokens\":256,\"messages\":[]}");

    RewrittenRequest rewritten = REWRITER.rewrite(request, ANTHROPIC, CLAUDE_BACKUP);

    assertThat(rewritten.request().uri()).isEqualTo(URI.create("http://127.0.0.1:9003/v1/messages"));
    assertThat(rewritten.request().headers()).isEqualTo(Headers.of(
        "anthropic-version", "2023-06-01", "anthropic-beta", "prompt-caching-2024-07-31",
        "content-type", "application/json", "x-api-key", "sk-ant-backup"));
    assertThat(body(rewritten.request()))
        .isEqualTo("{\"model\":\"claude-haiku-4-5\",\"max_tokens\":256,\"messages\":[]}");
  }

  @Test
  void anthropicGetsAnAnthropicVersionWhenTheRequestHasNone() {
    OutboundRequest request = post("https://api.anthropic.com/v1/messages",
        Headers.of("X-Api-Key", "sk-ant-app-own"), "{\"model\":\"claude-opus-4-1\"}");

    assertThat(REWRITER.rewrite(request, ANTHROPIC, CLAUDE_BACKUP).request().headers())
        .isEqualTo(Headers.of("x-api-key", "sk-ant-backup", "anthropic-version", "2023-06-01"));
  }

  @Test
  void aRequestToTheProviderItWasAddressedToPassesUnchanged() {
    OutboundRequest request = RewriteFixtures.openAiChat("{\"model\":\"gpt-4o\"}");

    RewrittenRequest same = REWRITER.rewrite(request, OPENAI, OPENAI);

    assertThat(same.request()).isSameAs(request);
    assertThat(same.request().headers().first("authorization")).contains("Bearer sk-app-own");
    assertThat(same.rewritten()).isFalse();
    assertThat(same.model()).isEmpty();
  }

  @Test
  void refusesWhatTheTargetsApiHasNoEquivalentFor() {
    assertThatThrownBy(() -> REWRITER.rewrite(RewriteFixtures.openAiChat("{\"messages\":[]}"), OPENAI, AZURE))
        .isInstanceOf(RewriteException.class)
        .hasMessage("cannot send openai's request to azure: the request names no model, so no Azure deployment can be chosen");
    assertThatThrownBy(() -> REWRITER.rewrite(post("https://api.openai.com/v1/files",
        Headers.empty(), "{\"model\":\"gpt-4o\"}"), OPENAI, AZURE))
        .hasMessage("cannot send openai's request to azure: only [/chat/completions, /completions, /embeddings]"
            + " move between openai and azure-openai, not /files");
    assertThatThrownBy(() -> REWRITER.rewrite(post("https://contoso.openai.azure.com/openai/models?api-version=2024-10-21",
        Headers.empty(), ""), AZURE, BACKUP))
        .hasMessageStartingWith("cannot send azure's request to backup: only Azure deployment operations");
  }

  @Test
  void refusesARequestThatIsNotUnderTheSourcesBaseUrl() {
    assertThatThrownBy(() -> REWRITER.rewrite(post("https://gw.example.com/other/v1/chat/completions",
        Headers.empty(), "{}"), GATEWAY, BACKUP))
        .isInstanceOf(RewriteException.class)
        .hasMessage("cannot send gateway's request to backup: the request's URL is not under gateway's base-url"
            + " https://gw.example.com/openai/");
  }
}
