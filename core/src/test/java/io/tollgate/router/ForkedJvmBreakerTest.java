package io.tollgate.router;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.config.BreakerConfig;
import io.tollgate.redis.RedisConnection;
import io.tollgate.testkit.redis.RedisServer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The fleet for real: this JVM and a second one ({@link BreakerFleetWorker}, forked with this
 * class path) share one provider's breaker through one Redis.
 */
class ForkedJvmBreakerTest {

  private static final Duration OPEN_FOR = Duration.ofSeconds(1);
  private static final String PROVIDER = "forked";

  private RedisServer server;
  private RedisConnection client;
  private ProviderBreakers breakers;
  private Process worker;
  private PrintWriter toWorker;
  private BufferedReader fromWorker;

  @BeforeEach
  void start() throws IOException {
    server = RedisServer.start();
    client = RedisConnection.standalone(server.uri())
        .timeout(Duration.ofMillis(500)).poolSize(4).build();
    breakers = ProviderBreakers.builder(BreakerConfig.builder()
            .openFor(OPEN_FOR).maxOpenFor(OPEN_FOR.multipliedBy(4)).build())
        .redis(client).build();
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    worker = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
        BreakerFleetWorker.class.getName(), Integer.toString(server.port()), PROVIDER,
        Long.toString(OPEN_FOR.toMillis()))
        .redirectError(ProcessBuilder.Redirect.INHERIT)
        .start();
    toWorker = new PrintWriter(worker.getOutputStream(), true, StandardCharsets.UTF_8);
    fromWorker = new BufferedReader(new InputStreamReader(worker.getInputStream(), StandardCharsets.UTF_8));
    assertThat(answer()).isEqualTo("ready");
  }

  @AfterEach
  void stop() throws Exception {
    if (worker.isAlive()) {
      toWorker.println("quit");
      if (!worker.waitFor(10, TimeUnit.SECONDS)) {
        worker.destroyForcibly();
      }
    }
    breakers.close();
    client.close();
    server.close();
  }

  private String answer() {
    try {
      for (String line; (line = fromWorker.readLine()) != null; ) {
        if (line.startsWith(">")) {
          return line.substring(1);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    throw new IllegalStateException("the worker JVM ended");
  }

  private String ask(String command) {
    toWorker.println(command);
    return answer();
  }

  @Test
  void aBreakerOpenedInAnotherJvmIsOpenHereWithinASecondAndOneProbeClosesBoth() {
    ProviderBreaker here = breakers.breaker(PROVIDER);
    assertThat(here.tryAcquirePermission()).isTrue();

    for (int i = 0; i < 3; i++) {
      assertThat(ask("fail")).isEqualTo("ok");
    }
    assertThat(ask("state")).isEqualTo("OPEN LOCAL");
    Duration took = Poll.until(Duration.ofSeconds(5), "this JVM refusing calls",
        () -> !here.tryAcquirePermission());

    assertThat(took).isLessThan(Duration.ofSeconds(1));
    assertThat(here.openedBy()).contains(OpenedBy.FLEET);

    // once the open time is over, both ask until one is permitted, then a while longer
    int permittedHere = 0;
    int permittedThere = 0;
    long deadline = System.nanoTime() + Duration.ofSeconds(6).toNanos();
    boolean watching = false;
    while (System.nanoTime() - deadline < 0) {
      permittedHere += here.tryAcquirePermission() ? 1 : 0;
      permittedThere += ask("acquire").equals("true") ? 1 : 0;
      if (!watching && permittedHere + permittedThere > 0) {
        watching = true;
        deadline = System.nanoTime() + Duration.ofMillis(750).toNanos();
      }
      Poll.pause(20);
    }
    assertThat(permittedHere + permittedThere).isEqualTo(1);

    if (permittedHere == 1) {
      here.onSuccess(Duration.ofMillis(200));
      took = Poll.until(Duration.ofSeconds(5), "the other JVM closing",
          () -> ask("state").equals("CLOSED -"));
    } else {
      assertThat(ask("success")).isEqualTo("ok");
      took = Poll.until(Duration.ofSeconds(5), "this JVM closing",
          () -> here.state() == BreakerState.CLOSED);
    }
    assertThat(took).isLessThan(Duration.ofSeconds(1));
    assertThat(here.tryAcquirePermission()).isTrue();
    assertThat(ask("acquire")).isEqualTo("true");
  }
}
