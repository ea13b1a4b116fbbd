package io.tollgate.gate;

import static io.tollgate.gate.GateTestSupport.CHAT;
import static io.tollgate.gate.GateTestSupport.chat;
import static io.tollgate.gate.GateTestSupport.config;
import static io.tollgate.gate.GateTestSupport.readBody;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.config.TollgateConfig;
import io.tollgate.limiter.Charge;
import io.tollgate.limiter.ForwardingRateLimiter;
import io.tollgate.limiter.JointDecision;
import io.tollgate.limiter.Limits;
import io.tollgate.limiter.RateLimiter;
import io.tollgate.limiter.Subject;
import io.tollgate.redis.RedisConnection;
import io.tollgate.testkit.llm.Fault;
import io.tollgate.testkit.llm.MockLlmServer;
import io.tollgate.testkit.redis.RedisServer;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link Gate#callAsync} with an executor for its steps: every reserve and release (real Redis
 * round trips) runs on that executor, neither on the caller's thread nor on the client's thread
 * that completes an attempt, and the tenant bound on the caller is the one charged.
 */
class GateAsyncStepsTest {

  @AutoClose static final RedisServer redis = RedisServer.start();
  @AutoClose static final MockLlmServer primary = MockLlmServer.start();
  @AutoClose static final MockLlmServer backup = MockLlmServer.start();

  private final JdkTransport transport = new JdkTransport(Duration.ofSeconds(15));
  private final ExecutorService steps = Executors.newSingleThreadExecutor(
      task -> new Thread(task, "gate-steps"));
  private RedisConnection connection;
  private ThreadRecordingLimiter limiter;
  private Gate gate;

  @BeforeEach
  void start() {
    redis.flushAll();
    primary.reset();
    backup.reset();
    connection = RedisConnection.standalone(redis.uri())
        .timeout(Duration.ofSeconds(2)).poolSize(2).build();
    limiter = new ThreadRecordingLimiter(RateLimiter.redis(connection));
    TollgateConfig config = config("""
        tollgate:
          providers:
            primary:
              base-url: %s
              limits:
                requests-per-hour: 5
              fallbacks: [backup]
            backup:
              base-url: %s
              api-key: sk-backup
              limits:
                requests-per-hour: 5
          tenants:
            header: X-Tenant
            limits:
              requests-per-hour: 10
        """.formatted(primary.baseUrl(), backup.baseUrl()), Map.of());
    gate = Gate.builder(config).limiter(limiter).build();
  }

  @AfterEach
  void stop() {
    gate.close();
    limiter.close();
    connection.close();
    steps.shutdownNow();
  }

  @Test
  void reservesAndReleasesOnlyOnTheStepsAndChargesTheCallersTenant() throws Exception {
    primary.script().next(1, Fault.rateLimited(Duration.ZERO));

    CallResult<HttpResponse<InputStream>> result;
    try (Tenants.Scope bound = Tenants.bind("acme")) {
      result = gate.callAsync(chat(primary.baseUrl(), "sk-app", CHAT), true, transport.async(), steps)
          .get(15, TimeUnit.SECONDS);
    }

    assertThat(result.provider()).isEqualTo("backup");
    assertThat(readBody(result)).contains("\"object\":\"chat.completion\"");
    assertThat(primary.requestCount()).isEqualTo(1);
    assertThat(backup.requestCount()).isEqualTo(1);
    assertThat(limiter.reserved).as("the primary's, then the backup's after the primary's 429")
        .containsExactly("gate-steps", "gate-steps");
    assertThat(limiter.released).as("the primary's, given back after its 429")
        .containsExactly("gate-steps");
    TollgateConfig config = gate.config();
    assertThat(remainingRequests(Subject.of("tenant", "acme"),
        config.tenants().orElseThrow().limitsFor("acme").toLimits()))
        .as("one call charged to the caller's tenant").isEqualTo(9);
    assertThat(remainingRequests(Subject.of("provider", "primary"),
        config.provider("primary").orElseThrow().limits().toLimits())).isEqualTo(5);
    assertThat(remainingRequests(Subject.of("provider", "backup"),
        config.provider("backup").orElseThrow().limits().toLimits())).isEqualTo(4);
  }

  @Test
  void anExecutorThatRefusesTheFirstStepSendsAndReservesNothing() {
    steps.shutdown();

    assertThatThrownBy(() -> gate.callAsync(chat(primary.baseUrl(), "sk-app", CHAT), true,
        transport.async(), steps)).isInstanceOf(RejectedExecutionException.class);
    assertThat(limiter.reserved).isEmpty();
    assertThat(primary.requestCount()).isZero();
  }

  /** What is left of {@code subject}'s requests, read without charging one. */
  private long remainingRequests(Subject subject, Limits limits) {
    return RateLimiter.redis(connection).reserve(subject, limits, 0, 1).remainingRequests();
  }

  /** Redis's limiter, noting the thread of each reserve and release. */
  private static final class ThreadRecordingLimiter extends ForwardingRateLimiter {
    final List<String> reserved = new CopyOnWriteArrayList<>();
    final List<String> released = new CopyOnWriteArrayList<>();

    ThreadRecordingLimiter(RateLimiter redis) {
      super(redis);
    }

    @Override
    public JointDecision reserveAll(List<Charge> charges, long requests, long tokens) {
      reserved.add(Thread.currentThread().getName());
      return delegate().reserveAll(charges, requests, tokens);
    }

    @Override
    public void releaseAll(JointDecision decision) {
      released.add(Thread.currentThread().getName());
      delegate().releaseAll(decision);
    }
  }
}
