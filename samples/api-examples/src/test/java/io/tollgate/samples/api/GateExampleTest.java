package io.tollgate.samples.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.testkit.llm.MockLlmServer;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Gate's example front end, run against a mock provider: forwarded, then refused. */
class GateExampleTest {

  @AutoClose static final MockLlmServer provider = MockLlmServer.start();

  private static final String CHAT = "{\"model\":\"gpt-4o\",\"max_tokens\":20,"
      + "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";

  @Test
  void aCallIsForwardedUntilItsLimitThenRefusedInTheProvidersOwnShape(@TempDir Path dir)
      throws Exception {
    Path config = Files.writeString(dir.resolve("tollgate.yaml"), """
        tollgate:
          providers:
            openai:
              base-url: %s
              api: openai
              limits:
                requests-per-minute: 1
        """.formatted(provider.baseUrl()));
    URI url = URI.create(provider.baseUrl() + "/v1/chat/completions");

    List<String> answers = GateExample.chats(config.toString(), url, CHAT, 2);
    String forwarded = answers.get(0);
    String refused = answers.get(1);

    assertThat(forwarded).startsWith("200 ").contains("\"object\":\"chat.completion\"");
    assertThat(refused).startsWith("429 ").contains("\"code\":\"rate_limit_exceeded\"");
    assertThat(provider.requestCount()).isEqualTo(1);
  }
}
