package io.tollgate.router;

import io.tollgate.llm.Headers;
import io.tollgate.llm.ProviderApi;
import io.tollgate.config.ProviderConfig;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** Providers of every API, and requests to them, for the rewrite tests. */
final class RewriteFixtures {

  static final ProviderConfig OPENAI = ProviderConfig.builder("openai")
      .baseUrl("https://api.openai.com").api(ProviderApi.OPENAI).apiKey("sk-openai-configured").build();
  static final ProviderConfig BACKUP = ProviderConfig.builder("backup")
      .baseUrl("http://127.0.0.1:9002").api(ProviderApi.OPENAI).apiKey("sk-backup")
      .modelMap(Map.of("gpt-4o", "gpt-4o-mini")).build();
  static final ProviderConfig GATEWAY = ProviderConfig.builder("gateway")
      .baseUrl("https://gw.example.com/openai/").api(ProviderApi.OPENAI).apiKey("sk-gateway").build();
  static final ProviderConfig AZURE = ProviderConfig.builder("azure")
      .baseUrl("https://contoso.openai.azure.com").api(ProviderApi.AZURE_OPENAI).apiKey("az-contoso")
      .modelMap(Map.of("gpt-4o", "gpt4o-prod")).build();
  static final ProviderConfig AZURE_BACKUP = ProviderConfig.builder("azure-backup")
      .baseUrl("https://fabrikam.openai.azure.com").api(ProviderApi.AZURE_OPENAI).apiKey("az-fabrikam")
      .modelMap(Map.of("gpt4o-prod", "gpt4o-standby")).build();
  static final ProviderConfig ANTHROPIC = ProviderConfig.builder("anthropic")
      .baseUrl("https://api.anthropic.com").api(ProviderApi.ANTHROPIC).apiKey("sk-ant-configured").build();
  static final ProviderConfig CLAUDE_BACKUP = ProviderConfig.builder("claude-backup")
      .baseUrl("http://127.0.0.1:9003").api(ProviderApi.ANTHROPIC).apiKey("sk-ant-backup")
      .modelMap(Map.of("claude-sonnet-4-5", "claude-haiku-4-5")).build();
  static final ProviderConfig KEYLESS = ProviderConfig.builder("keyless")
      .baseUrl("http://127.0.0.1:9004").api(ProviderApi.OPENAI).build();

  static final RequestRewriter REWRITER = RequestRewriter.of();

  private RewriteFixtures() {}

  static OutboundRequest post(String uri, Headers headers, String body) {
    return OutboundRequest.of("POST", URI.create(uri), headers, body.getBytes(StandardCharsets.UTF_8));
  }

  /** A chat call as the app sends it to OpenAI, with its own key. */
  static OutboundRequest openAiChat(String body) {
    return post("https://api.openai.com/v1/chat/completions",
        Headers.of("Content-Type", "application/json", "Authorization", "Bearer sk-app-own"), body);
  }

  static String body(OutboundRequest request) {
    return new String(request.body(), StandardCharsets.UTF_8);
  }
}
