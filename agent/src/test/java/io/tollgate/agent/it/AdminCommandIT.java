package io.tollgate.agent.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.testkit.redis.RedisServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;

/** The agent's jar as the operator's command: {@code java -jar tollgate-agent.jar tenants set ...}. */
class AdminCommandIT {

  @AutoClose static final RedisServer redis = RedisServer.start();

  @TempDir Path dir;

  private record Result(int status, String out, String err) {}

  private Result run(String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-jar", ForkedApp.agentJar().toAbsolutePath().toString()));
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command)
        .redirectOutput(dir.resolve("out.txt").toFile())
        .redirectError(dir.resolve("err.txt").toFile())
        .start();
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    return new Result(process.exitValue(),
        Files.readString(dir.resolve("out.txt"), StandardCharsets.UTF_8),
        Files.readString(dir.resolve("err.txt"), StandardCharsets.UTF_8));
  }

  private Path config(String redisUrl) throws Exception {
    return Files.writeString(dir.resolve("tollgate.yaml"), """
        tollgate:
          redis:
            url: %s
          providers:
            openai:
              base-url: https://api.openai.com
          tenants:
            header: X-Tenant-Id
            limits: { requests-per-minute: 60 }
        """.formatted(redisUrl));
  }

  @Test
  void setsListsAndAuditsALimitInTheFleetsRedis() throws Exception {
    redis.flushAll();
    Path config = config(redis.uri().toString());

    Result set = run("--config", config.toString(), "tenants", "set", "acme",
        "--requests-per-minute", "600", "--by", "alice");
    Result list = run("--config", config.toString(), "list");
    Result removed = run("--config", config.toString(), "tenants", "remove", "acme", "--by", "bob");
    Result audit = run("--config", config.toString(), "audit");

    assertThat(set.status()).as(set.err()).isZero();
    assertThat(set.err()).isEmpty();
    assertThat(set.out()).matches("version 1, \\S+Z, alice: set tenant acme: requests-per-minute=600\n"
        + "in force on every instance within 1 s\n");
    assertThat(list.out()).matches("version 1:\n  tenant acme: requests-per-minute=600 \\(by alice, \\S+Z\\)\n");
    assertThat(removed.out()).matches("version 2, \\S+Z, bob: remove tenant acme \\(was requests-per-minute=600\\)\n");
    assertThat(audit.out().lines()).hasSize(2);
    assertThat(audit.out().lines().toList().get(1)).contains("alice: set tenant acme");
    try (Jedis jedis = redis.jedis()) {
      assertThat(jedis.get("tg:{live}:version")).isEqualTo("2");
    }
  }

  @Test
  void aWrongKeyChangesNothingAndExitsTwoNamingIt() throws Exception {
    redis.flushAll();
    Path config = config(redis.uri().toString());

    Result result = run("--config", config.toString(), "tenants", "set", "acme",
        "--requests-per-minut", "600");

    assertThat(result.status()).isEqualTo(2);
    assertThat(result.err()).isEqualTo("tollgate: tollgate.tenants.overrides.acme.requests-per-minut"
        + " is not a known key; did you mean requests-per-minute?\n");
    try (Jedis jedis = redis.jedis()) {
      assertThat(jedis.exists("tg:{live}:version")).isFalse();
    }
  }

  @Test
  void anUnreachableRedisExitsOneAndSaysNothingChanged() throws Exception {
    Path config = config("redis://127.0.0.1:1");

    Result result = run("--config", config.toString(), "list");

    assertThat(result.status()).isEqualTo(1);
    assertThat(result.err()).startsWith("tollgate: Redis did not answer: ").endsWith("; nothing changed\n");
  }
}
