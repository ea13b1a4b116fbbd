package io.tollgate.sdkit;

import io.tollgate.testkit.llm.MockLlmServer;
import io.tollgate.testkit.redis.RedisServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The configuration files of these tests. */
final class SdkConfigs {

  private SdkConfigs() {}

  /**
   * {@code tollgate.yaml} in {@code dir}: limits in {@code redis}, one provider, {@code primary},
   * of API {@code api} at {@code provider}, with {@code limits} ({@code "requests-per-day: 2"}).
   */
  static Path primaryLimitedTo(Path dir, RedisServer redis, MockLlmServer provider, String api,
      String... limits) throws IOException {
    return Files.writeString(dir.resolve("tollgate.yaml"), """
        tollgate:
          redis:
            url: %s
            timeout: 2s # a cold forked JVM's first calls may be slow; a timeout would fail open
          providers:
            primary:
              base-url: %s
              api: %s
              limits:
        %s""".formatted(redis.uri(), provider.baseUrl(), api,
        "        " + String.join("\n        ", limits) + "\n"));
  }
}
