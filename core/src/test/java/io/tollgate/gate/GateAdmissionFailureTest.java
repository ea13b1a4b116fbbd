package io.tollgate.gate;

import static io.tollgate.gate.GateTestSupport.CHAT;
import static io.tollgate.gate.GateTestSupport.chat;
import static io.tollgate.gate.GateTestSupport.config;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.limiter.Charge;
import io.tollgate.limiter.ForwardingRateLimiter;
import io.tollgate.limiter.JointDecision;
import io.tollgate.limiter.RateLimiter;
import io.tollgate.testkit.llm.MockLlmServer;
import io.tollgate.testkit.redis.RedisServer;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A failure of Tollgate's own code while a call is admitted is decided by {@code redis.on-failure}:
 * fail-closed refuses the call (nothing sent), fail-open lets the front end send it.
 */
class GateAdmissionFailureTest {

  private final MockLlmServer provider = MockLlmServer.start();
  private final RedisServer redis = RedisServer.start();
  private final JdkTransport transport = new JdkTransport(Duration.ofSeconds(15));
  private final RateLimiter failing = new FailingLimiter();

  @AfterEach
  void stop() {
    provider.close();
    redis.close();
    failing.close();
  }

  private Gate gate(String onFailure) {
    return Gate.builder(config("""
        tollgate:
          redis:
            url: %s
            on-failure: %s
          providers:
            openai:
              base-url: %s
              limits: { requests-per-minute: 10 }
        """.formatted(redis.uri(), onFailure, provider.baseUrl()), Map.of())).limiter(failing).build();
  }

  @Test
  void failClosedRefusesTheCallWithTheProvidersOwn503AndSendsNothing() throws Exception {
    try (Gate gate = gate("fail-closed")) {
      CallResult<HttpResponse<InputStream>> result = gate.call(chat(provider.baseUrl(), "sk-app", CHAT), true, transport);

      assertThat(result).isInstanceOf(CallResult.Synthetic.class);
      CallResult.Synthetic<HttpResponse<InputStream>> refused = (CallResult.Synthetic<HttpResponse<InputStream>>) result;
      assertThat(refused.response().status()).isEqualTo(503);
      assertThat(new String(refused.response().body(), StandardCharsets.UTF_8))
          .contains("Tollgate could not decide on this request");
      assertThat(provider.requestCount()).isZero();
    }
  }

  @Test
  void failClosedRefusesAnAsyncCallTheSameWay() throws Exception {
    try (Gate gate = gate("fail-closed")) {
      CallResult<HttpResponse<InputStream>> result = gate.callAsync(chat(provider.baseUrl(), "sk-app", CHAT),
          true, transport.async(), Runnable::run).get(10, TimeUnit.SECONDS);

      assertThat(result).isInstanceOf(CallResult.Synthetic.class);
      assertThat(((CallResult.Synthetic<HttpResponse<InputStream>>) result).response().status()).isEqualTo(503);
      assertThat(provider.requestCount()).isZero();
    }
  }

  @Test
  void failOpenHandsTheFailureToTheFrontEndWhichSendsTheCallAsWithoutTollgate() {
    try (Gate gate = gate("fail-open")) {
      assertThatThrownBy(() -> gate.call(chat(provider.baseUrl(), "sk-app", CHAT), true, transport))
          .isInstanceOf(IllegalStateException.class).hasMessage("a bug in the limiter");
      assertThatThrownBy(() -> gate.callAsync(chat(provider.baseUrl(), "sk-app", CHAT), true,
          transport.async(), Runnable::run).join())
          .isInstanceOf(CompletionException.class).hasRootCauseMessage("a bug in the limiter");
      assertThat(provider.requestCount()).isZero(); // the front end sends it, not the gate
    }
  }

  /** A limiter whose reserve fails as a bug would: not a Redis fault, not a refusal. */
  private static final class FailingLimiter extends ForwardingRateLimiter {
    FailingLimiter() {
      super(RateLimiter.inMemory());
    }

    @Override
    public JointDecision reserveAll(List<Charge> charges, long requests, long tokens) {
      throw new IllegalStateException("a bug in the limiter");
    }
  }
}
