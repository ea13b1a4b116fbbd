package io.tollgate.router;

import io.tollgate.llm.Headers;
import static io.tollgate.router.RewriteFixtures.ANTHROPIC;
import static io.tollgate.router.RewriteFixtures.AZURE;
import static io.tollgate.router.RewriteFixtures.BACKUP;
import static io.tollgate.router.RewriteFixtures.CLAUDE_BACKUP;
import static io.tollgate.router.RewriteFixtures.KEYLESS;
import static io.tollgate.router.RewriteFixtures.OPENAI;
import static io.tollgate.router.RewriteFixtures.REWRITER;
import static io.tollgate.router.RewriteFixtures.openAiChat;
import static io.tollgate.router.RewriteFixtures.post;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.config.ProviderConfig;
import org.junit.jupiter.api.Test;

/** One provider's key never reaches another host, and no key is ever printed. */
class CredentialIsolationTest {

  @Test
  void everyCredentialHeaderOfTheOriginalIsRemovedWhateverItsCaseAndCount() {
    OutboundRequest request = post("https://api.openai.com/v1/chat/completions", Headers.of(
        "AUTHORIZATION", "Bearer sk-app-1", "authorization", "Bearer sk-app-2",
        "Api-Key", "secret-3", "X-API-KEY", "secret-4", "x-api-key", "secret-5",
        "Proxy-Authorization", "Basic secret-6", "Ocp-Apim-Subscription-Key", "secret-7",
        "Cookie", "session=secret-8", "OpenAI-Organization", "org-9", "OpenAI-Project", "proj-10",
        "Accept", "application/json"), "{\"model\":\"gpt-4o\"}");

    for (ProviderConfig target : new ProviderConfig[] {BACKUP, AZURE}) {
      Headers sent = REWRITER.rewrite(request, OPENAI, target).request().headers();

      assertThat(sent.fields()).hasSize(2);
      assertThat(sent.fields().get(0)).isEqualTo(new Headers.Field("Accept", "application/json"));
      assertThat(sent.toString()).doesNotContain("secret", "sk-app", "org-9", "proj-10");
    }
    assertThat(REWRITER.rewrite(request, OPENAI, BACKUP).request().headers().all("authorization"))
        .containsExactly("Bearer sk-backup");
    assertThat(REWRITER.rewrite(request, OPENAI, AZURE).request().headers().all("api-key"))
        .containsExactly("az-contoso");
  }

  @Test
  void aTargetWithoutItsOwnKeyIsRefusedRatherThanGivenTheOriginalOne() {
    assertThatThrownBy(() -> REWRITER.rewrite(openAiChat("{\"model\":\"gpt-4o\"}"), OPENAI, KEYLESS))
        .isInstanceOf(RewriteException.class)
        .hasMessage("cannot send openai's request to keyless: keyless has no api-key;"
            + " set tollgate.providers.keyless.api-key")
        .satisfies(e -> {
          assertThat(((RewriteException) e).from()).isEqualTo("openai");
          assertThat(((RewriteException) e).to()).isEqualTo("keyless");
        });
  }

  @Test
  void anthropicAndTheOpenAiFamilyAreNeverTranslated() {
    assertThatThrownBy(() -> REWRITER.rewrite(openAiChat("{\"model\":\"gpt-4o\"}"), OPENAI, CLAUDE_BACKUP))
        .isInstanceOf(RewriteException.class)
        .hasMessage("cannot send openai's request to claude-backup: openai requests are not translated to"
            + " anthropic; fall back only to a provider of the same API family");
    assertThatThrownBy(() -> REWRITER.rewrite(post("https://api.anthropic.com/v1/messages",
        Headers.of("x-api-key", "sk-ant-app"), "{}"), ANTHROPIC, AZURE))
        .hasMessage("cannot send anthropic's request to azure: anthropic requests are not translated to"
            + " azure-openai; fall back only to a provider of the same API family");
  }

  @Test
  void compatibleTellsTheConfigurationWhichFallbacksCanWork() {
    assertThat(RequestRewriter.compatible(OPENAI, BACKUP)).isTrue();
    assertThat(RequestRewriter.compatible(OPENAI, AZURE)).isTrue();
    assertThat(RequestRewriter.compatible(AZURE, OPENAI)).isTrue();
    assertThat(RequestRewriter.compatible(ANTHROPIC, CLAUDE_BACKUP)).isTrue();
    assertThat(RequestRewriter.compatible(OPENAI, ANTHROPIC)).isFalse();
    assertThat(RequestRewriter.compatible(ANTHROPIC, AZURE)).isFalse();
  }

  @Test
  void noKeyAppearsWhenARequestIsPrinted() {
    RewrittenRequest rewritten = REWRITER.rewrite(post("https://api.openai.com/v1/chat/completions",
        Headers.of("Accept", "application/json", "authorization", "Bearer sk-app-own"),
        "{\"model\":\"gpt-4o\"}"), OPENAI, BACKUP);

    assertThat(rewritten.request()).hasToString(
        "POST http://127.0.0.1:9002/v1/chat/completions [Accept: application/json, Authorization: ***] (23 bytes)");
    assertThat(rewritten.toString()).doesNotContain("sk-backup", "sk-app-own");
    assertThat(openAiChat("{}").toString()).doesNotContain("sk-app-own");
  }
}
