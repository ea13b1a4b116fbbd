package io.tollgate.testkit.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisNoScriptException;

class RedisServerTest {

  @AutoClose private final RedisServer redis = RedisServer.start();

  @Test
  void servesSetAndGetOnLoopback() {
    try (Jedis jedis = redis.jedis()) {
      assertThat(jedis.set("tenant:a", "42")).isEqualTo("OK");
      assertThat(jedis.get("tenant:a")).isEqualTo("42");
    }
    assertThat(redis.host()).isEqualTo("127.0.0.1");
    assertThat(redis.uri()).hasToString("redis://127.0.0.1:" + redis.port());
    assertThat(redis.isRunning()).isTrue();
  }

  @Test
  void runsLuaScripts() {
    try (Jedis jedis = redis.jedis()) {
      Object reply =
          jedis.eval("return redis.call('INCRBY', KEYS[1], ARGV[1])", List.of("n"), List.of("7"));
      assertThat(reply).isEqualTo(7L);
    }
  }

  @Test
  void restartKeepsThePortAndLosesTheData() {
    int port = redis.port();
    long firstPid = redis.pid();
    try (Jedis jedis = redis.jedis()) {
      jedis.set("survives", "no");
    }

    redis.restart();

    assertThat(redis.port()).isEqualTo(port);
    assertThat(redis.pid()).isNotEqualTo(firstPid);
    assertThat(ProcessHandle.of(firstPid)).isEmpty();
    try (Jedis jedis = redis.jedis()) {
      assertThat(jedis.get("survives")).isNull();
      assertThat(jedis.dbSize()).isZero();
      assertThat(jedis.set("after", "restart")).isEqualTo("OK");
      assertThat(jedis.get("after")).isEqualTo("restart");
    }
  }

  @Test
  void stopLeavesNoProcessAndClosesThePort() {
    long pid = redis.pid();

    redis.stop();

    assertThat(redis.isRunning()).isFalse();
    assertThat(ProcessHandle.of(pid)).isEmpty();
    assertThatThrownBy(() -> connect(redis.port())).isInstanceOf(ConnectException.class);
  }

  @Test
  void restartAfterStopServesAgain() {
    redis.stop();

    redis.restart();

    try (Jedis jedis = redis.jedis()) {
      assertThat(jedis.ping()).isEqualTo("PONG");
    }
  }

  @Test
  void killEndsTheProcessAbruptlyAndRestartRecovers() {
    long pid = redis.pid();

    redis.kill();

    assertThat(redis.isRunning()).isFalse();
    assertThat(ProcessHandle.of(pid)).isEmpty();
    assertThatThrownBy(() -> connect(redis.port())).isInstanceOf(ConnectException.class);
    redis.restart();
    assertThat(redis.isRunning()).isTrue();
  }

  @Test
  void flushScriptsMakesALoadedShaAnswerNoscript() {
    try (Jedis jedis = redis.jedis()) {
      String sha = jedis.scriptLoad("return 1");
      assertThat(jedis.evalsha(sha)).isEqualTo(1L);

      redis.flushScripts();

      assertThat(jedis.scriptExists(sha)).isFalse();
      assertThatThrownBy(() -> jedis.evalsha(sha))
          .isInstanceOf(JedisNoScriptException.class)
          .hasMessageStartingWith("NOSCRIPT");
    }
  }

  @Test
  void flushAllDeletesEveryKey() {
    try (Jedis jedis = redis.jedis()) {
      jedis.set("a", "1");
      jedis.select(1);
      jedis.set("b", "2");

      redis.flushAll();

      assertThat(jedis.dbSize()).isZero();
      jedis.select(0);
      assertThat(jedis.dbSize()).isZero();
    }
  }

  @Test
  void twoServersGetDifferentPorts() {
    try (RedisServer other = RedisServer.start()) {
      assertThat(other.port()).isNotEqualTo(redis.port());
      assertThat(other.pid()).isNotEqualTo(redis.pid());
    }
  }

  @Test
  void closeStopsTheServerAndForbidsRestart() {
    long pid = redis.pid();

    redis.close();

    assertThat(ProcessHandle.of(pid)).isEmpty();
    assertThatThrownBy(redis::restart)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageEndingWith("is closed and cannot be restarted");
  }

  @Test
  void retriesOnAnotherPortWhenTheChosenOneIsTaken() throws IOException {
    try (ServerSocket squatter = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      int taken = squatter.getLocalPort();
      int free = freePort();
      AtomicInteger calls = new AtomicInteger();

      try (RedisServer server = RedisServer.builder()
          .ports(() -> calls.getAndIncrement() == 0 ? taken : free)
          .start()) {

        assertThat(server.port()).isEqualTo(free);
        assertThat(calls).hasValue(2);
      }
    }
  }

  @Test
  void failsWithTheServersOwnExplanationWhenItCannotStart() {
    assertThatThrownBy(() -> RedisServer.builder().config("no-such-directive", "x").start())
        .isInstanceOf(RedisFixtureException.class)
        .hasMessageContaining("exited during startup")
        .hasMessageContaining("no-such-directive")
        .hasMessageContaining("Bad directive or wrong number of arguments");
  }

  @Test
  void rejectsDirectivesTheFixtureManages() {
    assertThatThrownBy(() -> RedisServer.builder().config("port", "6379"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("was 'port'");
  }

  private static void connect(int port) throws IOException {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), 1_000);
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      return socket.getLocalPort();
    }
  }
}
