package io.tollgate.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.config.Limiters;
import io.tollgate.redis.RedisConnection;
import io.tollgate.config.TollgateConfig;
import io.tollgate.limiter.Charge;
import io.tollgate.limiter.ForwardingRateLimiter;
import io.tollgate.limiter.JointDecision;
import io.tollgate.limiter.RateLimiter;
import io.tollgate.spring.boot.app.TestApp;
import io.tollgate.spring.boot.client.InternalFailures;
import io.tollgate.testkit.llm.Fault;
import io.tollgate.testkit.llm.MockLlmServer;
import io.tollgate.testkit.llm.RecordedRequest;
import io.tollgate.testkit.redis.RedisServer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.client.RestClient;
import org.springframework.web.reactive.function.client.WebClient;

/**
 * A Boot app whose own limiter bean (Redis's, which the test can break) fails: Tollgate's failure
 * never reaches the app. Before anything was sent, the call goes to the provider as if Tollgate
 * were absent, once; after the provider answered, the app gets that answer and nothing is sent
 * again. Each kind of failure is counted every time and logged once a minute.
 */
@SpringBootTest(classes = {TestApp.class, ClientInternalFailuresTest.BreakableLimiterConfig.class},
    webEnvironment = SpringBootTest.WebEnvironment.NONE, properties = {
        "tollgate.providers.openai.limits.requests-per-hour=100",
        "tollgate.providers.openai.fallbacks=backup",
        "tollgate.providers.backup.api-key=sk-backup",
        "tollgate.providers.backup.model-map.gpt-4o=gpt-4o-mini"})
@ExtendWith(OutputCaptureExtension.class)
class ClientInternalFailuresTest {

  static final RedisServer redis = RedisServer.start();
  static final MockLlmServer primary = MockLlmServer.start();
  static final MockLlmServer backup = MockLlmServer.start();
  static final String CHAT = "{\"model\":\"gpt-4o\",\"messages\":[{\"role\":\"user\",\"content\":\"Say hello\"}],\"max_tokens\":16}";

  @Autowired
  RestClient.Builder restClients;
  @Autowired
  WebClient.Builder webClients;
  @Autowired
  BreakableLimiter limiter;

  @DynamicPropertySource
  static void fixtures(DynamicPropertyRegistry registry) {
    registry.add("tollgate.redis.url", () -> redis.uri().toString());
    registry.add("tollgate.providers.openai.base-url", primary::baseUrl);
    registry.add("tollgate.providers.backup.base-url", backup::baseUrl);
  }

  @AfterAll
  static void stopFixtures() {
    primary.close();
    backup.close();
    redis.close();
  }

  @BeforeEach
  void reset() {
    redis.flushAll();
    primary.reset();
    backup.reset();
    limiter.reservesFail = false;
    limiter.releasesFail = false;
  }

  @Test
  void restClientCallsGoOutUnchangedWhenTheLimiterFailsAndTheFailureIsLoggedOnce(CapturedOutput output) {
    limiter.reservesFail = true;
    long before = InternalFailures.shared().count("rest-client");

    for (int i = 0; i < 2; i++) {
      Map.Entry<Integer, String> answer = restCall();
      assertThat(answer.getKey()).isEqualTo(200);
      assertThat(answer.getValue()).contains("\"object\":\"chat.completion\"");
    }

    assertThat(primary.requests()).as("each call sent once, as the app made it").hasSize(2)
        .allSatisfy(this::isTheAppsOwnRequest);
    assertThat(backup.requestCount()).isZero();
    assertThat(InternalFailures.shared().count("rest-client")).isEqualTo(before + 2);
    assertThat(linesOf(output, "Tollgate: internal failure in rest-client")).as(output.getAll())
        .singleElement().asString().contains(LimiterDown.class.getName());
  }

  @Test
  void webClientCallsGoOutUnchangedWhenTheLimiterFailsAndTheFailureIsLoggedOnce(CapturedOutput output) {
    limiter.reservesFail = true;
    long before = InternalFailures.shared().count("web-client");

    for (int i = 0; i < 2; i++) {
      Map.Entry<Integer, String> answer = webCall();
      assertThat(answer.getKey()).isEqualTo(200);
      assertThat(answer.getValue()).contains("\"object\":\"chat.completion\"");
    }

    assertThat(primary.requests()).as("each call sent once, as the app made it").hasSize(2)
        .allSatisfy(this::isTheAppsOwnRequest);
    assertThat(backup.requestCount()).isZero();
    assertThat(InternalFailures.shared().count("web-client")).isEqualTo(before + 2);
    assertThat(linesOf(output, "Tollgate: internal failure in web-client")).as(output.getAll())
        .singleElement().asString().contains(LimiterDown.class.getName());
  }

  @Test
  void aRestClientCallThatFailsInsideTollgateAfterTheProviderAnsweredGetsThatAnswerAndIsNotSentAgain() {
    limiter.releasesFail = true;
    primary.script().next(1, Fault.rateLimited(Duration.ZERO));
    long before = InternalFailures.shared().count("rest-client");

    Map.Entry<Integer, String> answer = restCall();

    assertThat(answer.getKey()).isEqualTo(429);
    assertThat(answer.getValue()).as("the provider's own refusal")
        .contains("Rate limit reached for gpt-4o").doesNotContain("(Tollgate)");
    assertThat(primary.requests()).singleElement().satisfies(this::isTheAppsOwnRequest);
    assertThat(backup.requestCount()).as("the fallback never tried").isZero();
    assertThat(InternalFailures.shared().count("rest-client")).isEqualTo(before + 1);
  }

  @Test
  void aWebClientCallThatFailsInsideTollgateAfterTheProviderAnsweredGetsThatAnswerAndIsNotSentAgain() {
    limiter.releasesFail = true;
    primary.script().next(1, Fault.rateLimited(Duration.ZERO));
    long before = InternalFailures.shared().count("web-client");

    Map.Entry<Integer, String> answer = webCall();

    assertThat(answer.getKey()).isEqualTo(429);
    assertThat(answer.getValue()).as("the provider's own refusal")
        .contains("Rate limit reached for gpt-4o").doesNotContain("(Tollgate)");
    assertThat(primary.requests()).singleElement().satisfies(this::isTheAppsOwnRequest);
    assertThat(backup.requestCount()).as("the fallback never tried").isZero();
    assertThat(InternalFailures.shared().count("web-client")).isEqualTo(before + 1);
  }

  private Map.Entry<Integer, String> restCall() {
    var response = restClients.baseUrl(primary.baseUrl()).build().post().uri("/v1/chat/completions")
        .header("Authorization", "Bearer sk-app")
        .contentType(MediaType.APPLICATION_JSON)
        .body(CHAT)
        .retrieve()
        .onStatus(status -> true, (request, ignored) -> { })
        .toEntity(String.class);
    return Map.entry(response.getStatusCode().value(), response.getBody());
  }

  private Map.Entry<Integer, String> webCall() {
    return webClients.baseUrl(primary.baseUrl()).build().post().uri("/v1/chat/completions")
        .header("Authorization", "Bearer sk-app")
        .contentType(MediaType.APPLICATION_JSON)
        .bodyValue(CHAT)
        .exchangeToMono(response -> response.bodyToMono(String.class).defaultIfEmpty("")
            .map(body -> Map.entry(response.statusCode().value(), body)))
        .block(Duration.ofSeconds(30));
  }

  private void isTheAppsOwnRequest(RecordedRequest request) {
    assertThat(request.header("authorization")).isEqualTo("Bearer sk-app");
    assertThat(request.bodyText()).isEqualTo(CHAT);
  }

  private static List<String> linesOf(CapturedOutput output, String text) {
    return output.getAll().lines().filter(line -> line.contains(text)).toList();
  }

  /** What the app's limiter throws when its reserves fail. */
  static final class LimiterDown extends RuntimeException {
    private static final long serialVersionUID = 1L;

    LimiterDown() {
      super("the app's limiter is down");
    }
  }

  /** What the app's limiter throws when its releases fail. */
  static final class ReleaseFailed extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ReleaseFailed() {
      super("the app's limiter could not release");
    }
  }

  @TestConfiguration
  static class BreakableLimiterConfig {
    @Bean(destroyMethod = "close")
    BreakableLimiter tollgateRateLimiter(TollgateConfig config, RedisConnection redis) {
      return new BreakableLimiter(Limiters.create(config.redis(), redis));
    }
  }

  /** An app's limiter bean: Redis's, whose reserves or releases the test makes fail. */
  static final class BreakableLimiter extends ForwardingRateLimiter {
    volatile boolean reservesFail;
    volatile boolean releasesFail;

    BreakableLimiter(RateLimiter redis) {
      super(redis);
    }

    @Override
    public JointDecision reserveAll(List<Charge> charges, long requests, long tokens) {
      if (reservesFail) {
        throw new LimiterDown();
      }
      return delegate().reserveAll(charges, requests, tokens);
    }

    @Override
    public void releaseAll(JointDecision decision) {
      if (releasesFail) {
        throw new ReleaseFailed();
      }
      delegate().releaseAll(decision);
    }
  }
}
