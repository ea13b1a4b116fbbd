package io.tollgate.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.testkit.redis.RedisServer;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisConnectionException;

/** The one client of an instance, made on first use or ahead of it in the background. */
class RedisConnectionTest {

  private RedisServer server;
  private RedisConnection connection;

  @BeforeEach
  void start() {
    server = RedisServer.start();
    connection = RedisConnection.standalone(server.uri()).timeout(Duration.ofMillis(200)).build();
  }

  @AfterEach
  void stop() {
    connection.close();
    server.close();
  }

  @Test
  void connectingInTheBackgroundMakesTheClientBeforeAnyoneAsksForIt() throws InterruptedException {
    connection.connectInBackground();

    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (tollgateClients() == 0 && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertThat(tollgateClients()).isEqualTo(1);
    UnifiedJedis client = connection.client();
    assertThat(client.ping()).isEqualTo("PONG");
    assertThat(connection.client()).isSameAs(client);
    assertThat(tollgateClients()).isEqualTo(1); // the pooled connection the background made
  }

  @Test
  void aRedisDownAtTheBackgroundConnectIsReachedOnceItAnswers() {
    server.stop();
    connection.connectInBackground();

    // a standalone client is made without a connection; its commands fail until Redis answers
    UnifiedJedis client = connection.client();
    assertThatThrownBy(client::ping).isInstanceOf(JedisConnectionException.class);
    server.restart();
    assertThat(client.ping()).isEqualTo("PONG");
    assertThat(connection.client()).isSameAs(client);
  }

  @Test
  void closingWhileTheBackgroundConnectRunsLeavesNoClientBehind() throws InterruptedException {
    connection.connectInBackground();
    connection.close();

    assertThatThrownBy(connection::client).isInstanceOf(IllegalStateException.class)
        .hasMessage("the Redis connection is closed");
    // a client the background made before the close is closed by it; none is made after
    long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    while (tollgateClients() > 0 && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertThat(tollgateClients()).isZero();
  }

  @Test
  void awaitingTheConnectionMakesTheClientOrSaysItCouldNot() {
    assertThat(connection.awaitConnected(Duration.ofSeconds(10))).isTrue();
    assertThat(connection.client().ping()).isEqualTo("PONG");

    RedisConnection nowhere = RedisConnection
        .cluster(List.of(InetSocketAddress.createUnresolved("127.0.0.1", 1)))
        .timeout(Duration.ofMillis(200)).build();
    try (nowhere) {
      assertThat(nowhere.awaitConnected(Duration.ofSeconds(10))).isFalse(); // refused at once
    }
    assertThat(nowhere.awaitConnected(Duration.ofSeconds(1))).isFalse(); // closed
  }

  @Test
  void pingSaysWhetherRedisAnswersNow() {
    assertThat(connection.ping()).isTrue();

    server.stop();
    assertThat(connection.ping()).isFalse();

    server.restart();
    assertThat(connection.ping()).isTrue();
  }

  @Test
  void aStandaloneRedisTakesItsLoginAndTlsFromItsUrl() {
    RedisConnection.Builder standalone = RedisConnection.standalone(server.uri());

    assertThatThrownBy(() -> standalone.login("tollgate", "secret"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("redis login of a standalone Redis is given by its url"
            + " (rediss://user:password@host:port)");
    assertThatThrownBy(() -> standalone.tls(true))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("redis tls of a standalone Redis is given by its url");
  }

  @Test
  void settingsAreCheckedWhenGiven() {
    RedisConnection.Builder builder = RedisConnection.standalone(server.uri());

    assertThatThrownBy(() -> builder.timeout(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("redis timeout must be > 0, was PT0S");
    assertThatThrownBy(() -> builder.poolSize(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("redis pool size must be > 0, was 0");
    assertThatThrownBy(() -> RedisConnection.cluster(List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("redis cluster needs at least one node");
  }

  /** Connections that named themselves as Tollgate's clients do. */
  private long tollgateClients() {
    try (Jedis jedis = server.jedis()) {
      return jedis.clientList().lines().filter(line -> line.contains(" name=tollgate ")).count();
    }
  }
}
