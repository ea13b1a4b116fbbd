package io.tollgate.sdkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.sdkit.ForkedSdkApp.Run;
import io.tollgate.testkit.llm.MockLlmServer;
import io.tollgate.testkit.redis.RedisServer;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.UnifiedJedis;

/**
 * An app with its own Jedis and ByteBuddy, of other versions than the agent's (which it relocates):
 * each runs as the app's, in the same Redis the agent limits through, beside its limited calls.
 */
class OwnLibrariesIT {

  @AutoClose static final RedisServer redis = RedisServer.start();
  @AutoClose static final MockLlmServer primary = MockLlmServer.start();

  @TempDir Path dir;

  /** The version of the Jedis inside the agent jar, from its relocated {@code pom.properties}. */
  private static String agentsJedisVersion() throws Exception {
    Path jar = Path.of(System.getProperty("tollgate.agent.jar", "../target/tollgate-agent.jar"));
    try (ZipFile zip = new ZipFile(jar.toFile())) {
      ZipEntry entry = zip.getEntry("io/tollgate/agent/shaded/redis/clients/jedis/pom.properties");
      Properties properties = new Properties();
      try (InputStream in = zip.getInputStream(entry)) {
        properties.load(in);
      }
      return properties.getProperty("version");
    }
  }

  @Test
  void theAppsOwnJedisAndByteBuddyRunBesideTheAgentsRelocatedOnes() throws Exception {
    primary.replyText("Hello from the primary").usage(12, 20);
    Path config = SdkConfigs.primaryLimitedTo(dir, redis, primary, "openai", "requests-per-day: 1");

    Run run = new ForkedSdkApp("io.tollgate.sdkit.app.OwnLibrariesApp", dir.resolve("app"))
        .withAgent(config)
        .env("PROVIDER_URL", primary.baseUrl())
        .env("APP_KEY", "app-key")
        .env("REDIS_URL", redis.uri().toString())
        .run("jedis", "bytebuddy", "chat", "chat");

    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(run.stderr()).as("nothing on the app's stderr but the agent's start-up line")
        .singleElement().asString().startsWith("[tollgate] on:");
    // the versions this module's pom gives the app, not the agent's Jedis 8 and ByteBuddy 1.18
    assertThat(run.steps()).as(run.toString()).containsExactly(
        "step 1 jedis ok model=" + System.getProperty("app.jedis.version") + " usage=- text=kept",
        "step 2 bytebuddy ok model=" + System.getProperty("app.byte-buddy.version")
            + " usage=- text=made by the app's ByteBuddy",
        "step 3 chat ok model=gpt-4o usage=12/20 text=Hello from the primary",
        "step 4 chat error status=429 type=RateLimitException detail=rate_limit_exceeded/requests");
    assertThat(primary.requests()).hasSize(1);
    assertThat(System.getProperty("app.jedis.version")).as("the agent bundles another Jedis")
        .isNotEqualTo(agentsJedisVersion());
    try (UnifiedJedis jedis = new UnifiedJedis(redis.uri())) {
      assertThat(jedis.get("app:own-jedis")).isEqualTo("kept");
      assertThat(jedis.keys("tg:*")).as("the agent's limiter state, in the same Redis").isNotEmpty();
    }
  }
}
