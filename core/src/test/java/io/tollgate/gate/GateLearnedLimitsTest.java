package io.tollgate.gate;

import static io.tollgate.gate.GateTestSupport.chat;
import static io.tollgate.gate.GateTestSupport.config;
import static io.tollgate.gate.GateTestSupport.readBody;
import static io.tollgate.gate.GateTestSupport.status;
import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.testkit.llm.MockLlmServer;
import io.tollgate.testkit.llm.RateLimits;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code learn-limits}: the provider's own {@code x-ratelimit-remaining-*} headers lower the room
 * Tollgate holds when they report less, on every backend, and never raise it.
 */
class GateLearnedLimitsTest {

  private final JdkTransport transport = new JdkTransport(Duration.ofSeconds(15));
  private MockLlmServer provider;

  @BeforeEach
  void start() {
    LimitBackends.flush();
    provider = MockLlmServer.start().usage(10, 5);
  }

  @AfterEach
  void stop() {
    provider.close();
  }

  private Gate gate(String backend, String providerKeys) {
    return gate(backend, providerKeys, 100);
  }

  private Gate gate(String backend, String providerKeys, int modelRequestsPerMinute) {
    String redisKeys = LimitBackends.yaml(backend);
    return Gate.create(config("tollgate:\n" + redisKeys + """
          providers:
            openai:
              base-url: %s
              limits: { requests-per-minute: 1000 }
              models:
                gpt-4o: { requests-per-minute: %d, tokens-per-minute: 100000 }
        %s""".formatted(provider.baseUrl(), modelRequestsPerMinute, providerKeys), Map.of()));
  }

  private List<Integer> calls(Gate gate, int count) throws Exception {
    List<Integer> statuses = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      CallResult<HttpResponse<InputStream>> result = gate.call(chat(provider.baseUrl(), "sk-app",
          GateTestSupport.CHAT), true, transport);
      if (result instanceof CallResult.Forwarded<HttpResponse<InputStream>>) {
        readBody(result);
      }
      statuses.add(status(result));
    }
    return statuses;
  }

  @ParameterizedTest
  @ValueSource(strings = {"memory", "redis", "cluster"})
  void aProviderReportingLessRoomStopsTheGateBeforeItsOwn429s(String backend) throws Exception {
    // another app on the same key has used all but 2 of the model's requests this minute
    provider.rateLimits(new RateLimits(500, 2, Duration.ofSeconds(30),
        2_000_000, 1_999_000, Duration.ofMillis(5)));
    try (Gate gate = gate(backend, "")) {
      // the first answer says 2 are left: the model's bucket keeps 2, then each call takes one
      assertThat(calls(gate, 5)).containsExactly(200, 200, 200, 429, 429);
      assertThat(provider.requestCount()).isEqualTo(3);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"memory", "redis", "cluster"})
  void aProviderReportingMoreRoomNeverRaisesTheConfiguredLimits(String backend) throws Exception {
    provider.rateLimits(new RateLimits(10_000, 9_999, Duration.ofMillis(6),
        2_000_000, 1_999_980, Duration.ofMillis(1)));
    try (Gate gate = gate(backend, "", 3)) {
      // the configured 3 per minute still hold after each answer reported 9,999 left
      assertThat(calls(gate, 4)).containsExactly(200, 200, 200, 429);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"memory", "redis"})
  void withLearnLimitsOffTheProvidersHeadersChangeNothing(String backend) throws Exception {
    provider.rateLimits(new RateLimits(500, 2, Duration.ofSeconds(30),
        2_000_000, 1_999_000, Duration.ofMillis(5)));
    try (Gate gate = gate(backend, "      learn-limits: false\n")) {
      assertThat(calls(gate, 5)).containsOnly(200);
    }
  }
}
