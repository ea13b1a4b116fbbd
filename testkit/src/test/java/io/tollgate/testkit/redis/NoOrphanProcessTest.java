package io.tollgate.testkit.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.testkit.redis.internal.Await;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Every redis-server dies with the JVM that started it, however that JVM ends, and its directory
 * goes with it. The JVM under test is a child process, so it can be SIGKILLed without taking the
 * test down with it.
 */
class NoOrphanProcessTest {

  private static final Duration CHILD_READY_TIMEOUT = Duration.ofSeconds(60);
  private static final Duration ORPHAN_DEADLINE = Duration.ofSeconds(5);

  private Process child;

  @AfterEach
  void killChild() {
    if (child != null) {
      child.destroyForcibly();
    }
  }

  @Test
  void standaloneServerDiesWhenItsJvmIsKilledWithSigkill() throws Exception {
    Ready ready = startChild("standalone", "hang");
    assertThat(ready.pids()).hasSize(1).allMatch(NoOrphanProcessTest::isAlive);
    assertThat(ready.directories()).hasSize(1).allMatch(Files::isDirectory);

    child.destroyForcibly(); // SIGKILL: no shutdown hook runs
    assertThat(child.waitFor(10, TimeUnit.SECONDS)).isTrue();

    assertGone(ready);
  }

  @Test
  void clusterNodesDieWhenTheirJvmIsKilledWithSigkill() throws Exception {
    Ready ready = startChild("cluster", "hang");
    assertThat(ready.pids()).hasSize(6).allMatch(NoOrphanProcessTest::isAlive);

    child.destroyForcibly();
    assertThat(child.waitFor(10, TimeUnit.SECONDS)).isTrue();

    assertGone(ready);
  }

  @Test
  void standaloneServerDiesWhenItsJvmExitsWithoutClosingIt() throws Exception {
    Ready ready = startChild("standalone", "exit");

    assertThat(child.waitFor(10, TimeUnit.SECONDS)).isTrue();
    assertThat(child.exitValue()).isZero();

    // The shutdown hook kills synchronously: nothing may be left at the moment the JVM is gone.
    assertThat(ready.pids()).noneMatch(NoOrphanProcessTest::isAlive);
    assertThat(ready.directories()).noneMatch(Files::exists);
    assertGone(ready);
  }

  private Ready startChild(String mode, String ending) throws Exception {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    child = new ProcessBuilder(
            java.toString(), "-cp", System.getProperty("java.class.path"),
            RedisInChildJvm.class.getName(), mode, ending)
        .redirectErrorStream(true)
        .start();
    StringBuilder output = new StringBuilder();
    CompletableFuture<String> readyLine = CompletableFuture.supplyAsync(() -> {
      try (BufferedReader reader = new BufferedReader(
          new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
        for (String line = reader.readLine(); line != null; line = reader.readLine()) {
          if (line.startsWith(RedisInChildJvm.READY)) {
            return line;
          }
          output.append(line).append('\n');
        }
        throw new IllegalStateException("child JVM ended without READY:\n" + output);
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
    });
    return Ready.parse(readyLine.get(CHILD_READY_TIMEOUT.toSeconds(), TimeUnit.SECONDS));
  }

  private static void assertGone(Ready ready) {
    Await.untilTrue("redis-server processes " + ready.pids() + " to die", ORPHAN_DEADLINE,
        () -> ready.pids().stream().noneMatch(NoOrphanProcessTest::isAlive), () -> "");
    Await.untilTrue("directories " + ready.directories() + " to be deleted", ORPHAN_DEADLINE,
        () -> ready.directories().stream().noneMatch(Files::exists), () -> "");
    for (long pid : ready.pids()) {
      assertThat(ProcessHandle.of(pid)).as("process %d", pid).isEmpty();
    }
    for (long port : ready.ports()) {
      assertThatThrownBy(() -> connect((int) port))
          .as("connecting to port %d", port)
          .isInstanceOf(ConnectException.class);
    }
  }

  private static boolean isAlive(long pid) {
    return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
  }

  private static void connect(int port) throws IOException {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), 1_000);
    }
  }

  /** What the child reported: {@code READY ports=1,2 pids=3,4 directories=/tmp/a,/tmp/b}. */
  private record Ready(List<Long> ports, List<Long> pids, List<Path> directories) {
    static Ready parse(String line) {
      String[] fields = line.split(" ");
      return new Ready(
          numbers(fields[1], "ports="),
          numbers(fields[2], "pids="),
          Arrays.stream(fields[3].substring("directories=".length()).split(","))
              .map(Path::of)
              .toList());
    }

    private static List<Long> numbers(String field, String prefix) {
      return Arrays.stream(field.substring(prefix.length()).split(",")).map(Long::valueOf).toList();
    }
  }
}
