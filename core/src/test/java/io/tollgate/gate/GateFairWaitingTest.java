package io.tollgate.gate;

import static io.tollgate.gate.GateTestSupport.CHAT;
import static io.tollgate.gate.GateTestSupport.chat;
import static io.tollgate.gate.GateTestSupport.config;
import static io.tollgate.gate.GateTestSupport.readBody;
import static io.tollgate.gate.GateTestSupport.status;
import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.llm.Headers;
import io.tollgate.router.OutboundRequest;
import io.tollgate.testkit.llm.MockLlmServer;
import io.tollgate.testkit.redis.RedisServer;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code on-limit: wait} serves the calls waiting for the same limit first come, first served:
 * a call that arrived later is never admitted before one of its class that waits already.
 */
class GateFairWaitingTest {

  private static RedisServer redis;
  private MockLlmServer provider;
  private final JdkTransport transport = new JdkTransport(Duration.ofSeconds(15));

  @BeforeAll
  static void startRedis() {
    redis = RedisServer.start();
  }

  @AfterAll
  static void stopRedis() {
    redis.close();
  }

  @BeforeEach
  void start() {
    redis.flushAll();
    provider = MockLlmServer.start().usage(10, 5);
  }

  @AfterEach
  void stop() {
    provider.close();
  }

  private Gate gate(String more) {
    return Gate.create(config("""
        tollgate:
          on-limit: wait
          max-wait: 10s
          redis:
            url: %s
          providers:
            openai:
              base-url: %s
              limits: { requests-per-second: 4 }
        %s""".formatted(redis.uri(), provider.baseUrl(), more), Map.of()));
  }

  private int call(Gate gate, String priority) throws Exception {
    OutboundRequest request = chat(provider.baseUrl(), "sk-app", CHAT);
    if (priority != null) {
      request = OutboundRequest.of("POST", URI.create(provider.baseUrl() + "/v1/chat/completions"),
          Headers.of("Authorization", "Bearer sk-app", "X-Priority", priority),
          CHAT.getBytes(StandardCharsets.UTF_8));
    }
    var result = gate.call(request, true, transport);
    if (result instanceof CallResult.Forwarded<HttpResponse<InputStream>>) {
      readBody(result);
    }
    return status(result);
  }

  /**
   * Empties the bucket, then starts {@code waiters} calls, each from a thread of its own once the
   * one before it waits; answers the order in which they were admitted.
   */
  private List<Integer> admissionOrder(Gate gate, int waiters, String priority) throws Exception {
    for (int i = 0; i < 4; i++) {
      assertThat(call(gate, priority)).isEqualTo(200);
    }
    ConcurrentLinkedQueue<Integer> admitted = new ConcurrentLinkedQueue<>();
    ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < waiters; i++) {
      int arrival = i;
      Thread thread = new Thread(() -> {
        try {
          assertThat(call(gate, priority)).isEqualTo(200);
          admitted.add(arrival);
        } catch (Throwable e) {
          failures.add(e);
        }
      }, "waiter-" + i);
      thread.start();
      threads.add(thread);
      awaitWaiting(thread);
    }
    for (Thread thread : threads) {
      thread.join(Duration.ofSeconds(20).toMillis());
    }
    assertThat(failures).isEmpty();
    return List.copyOf(admitted);
  }

  /** Until {@code thread} sleeps in the gate's wait: it has been refused and waits its turn. */
  private static void awaitWaiting(Thread thread) throws InterruptedException {
    long until = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    while (thread.getState() != Thread.State.TIMED_WAITING && thread.isAlive()
        && System.nanoTime() < until) {
      Thread.sleep(1);
    }
  }

  @Test
  void waitersAreAdmittedInTheOrderTheyArrived() throws Exception {
    try (Gate gate = gate("")) {
      assertThat(admissionOrder(gate, 8, null)).containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
    }
    assertThat(provider.requests()).hasSize(4 + 8);
  }

  @Test
  void withinAPriorityClassToo() throws Exception {
    try (Gate gate = gate("  priority:\n    header: X-Priority\n")) {
      assertThat(admissionOrder(gate, 6, "critical")).containsExactly(0, 1, 2, 3, 4, 5);
    }
  }
}
