package io.tollgate.gate;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.overrides.AdminCommand;
import io.tollgate.testkit.llm.MockLlmServer;
import io.tollgate.testkit.redis.RedisServer;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A fleet of three JVMs on one Redis: a tenant's limit set through the operator's command is in
 * force on all three within 5 s, and exact afterwards: 16 threads in each admit together exactly
 * the new limit.
 */
class LiveOverridesFleetTest {

  private static final int JVMS = 3;

  @TempDir Path dir;
  private RedisServer redis;
  private MockLlmServer provider;
  private final List<Member> members = new ArrayList<>();

  @BeforeEach
  void start() {
    redis = RedisServer.start();
    provider = MockLlmServer.start().usage(10, 5);
  }

  @AfterEach
  void stop() {
    members.forEach(Member::close);
    provider.close();
    redis.close();
  }

  @Test
  void aLimitSetThroughTheCommandHoldsOnEveryInstanceWithinFiveSecondsExactly() throws Exception {
    Path config = Files.writeString(dir.resolve("tollgate.yaml"), """
        tollgate:
          redis:
            url: %s
          providers:
            openai:
              base-url: %s
          tenants:
            header: X-Tenant-Id
            limits: { requests-per-day: 1000 }
        """.formatted(redis.uri(), provider.baseUrl()));
    for (int i = 0; i < JVMS; i++) {
      members.add(Member.start(config));
    }
    for (Member member : members) {
      assertThat(member.ask("calls 10 4 " + provider.baseUrl())).isEqualTo("admitted 10 refused 0");
    }

    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status = AdminCommand.run(List.of("--config", config.toString(), "tenants", "set", "acme",
        "--requests-per-day", "25", "--by", "fleet-test"), Map.of(),
        new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    long setAt = System.currentTimeMillis();

    assertThat(status).as(err.toString(StandardCharsets.UTF_8)).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8)).startsWith("version 1, ")
        .contains("fleet-test: set tenant acme: requests-per-day=25\n");
    members.forEach(member -> member.send("watch 1"));
    for (Member member : members) {
      String seen = member.answer();
      assertThat(seen).startsWith("version 1 at ");
      long at = Long.parseLong(seen.substring("version 1 at ".length()));
      assertThat(at - setAt).as("ms after the command returned").isLessThanOrEqualTo(5_000);
    }

    // the new capacity counts on its own: 25 across the fleet, whatever each instance asks
    members.forEach(member -> member.send("calls 40 16 " + provider.baseUrl()));
    int admitted = 0;
    int refused = 0;
    for (Member member : members) {
      String[] words = member.answer().split(" ");
      admitted += Integer.parseInt(words[1]);
      refused += Integer.parseInt(words[3]);
    }
    assertThat(admitted).isEqualTo(25);
    assertThat(refused).isEqualTo(3 * 40 - 25);
    assertThat(provider.requests()).hasSize(30 + 25);
  }

  /** One forked JVM running {@link LiveFleetMember}. */
  private record Member(Process process, Writer in, BufferedReader out) {

    static Member start(Path config) throws Exception {
      String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
      Process process = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
          LiveFleetMember.class.getName(), config.toString())
          .redirectError(ProcessBuilder.Redirect.INHERIT)
          .start();
      Member member = new Member(process,
          new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8),
          new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8)));
      assertThat(member.answer()).isEqualTo("ready");
      return member;
    }

    void send(String line) {
      try {
        in.write(line + "\n");
        in.flush();
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }

    String answer() throws java.io.IOException {
      String line = out.readLine();
      assertThat(line).as("the member's answer").isNotNull();
      return line;
    }

    String ask(String line) throws java.io.IOException {
      send(line);
      return answer();
    }

    void close() {
      process.destroy();
      try {
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
          process.destroyForcibly();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
