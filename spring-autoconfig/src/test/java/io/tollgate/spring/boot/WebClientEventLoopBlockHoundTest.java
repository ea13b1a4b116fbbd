package io.tollgate.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.config.Limiters;
import io.tollgate.redis.RedisConnection;
import io.tollgate.config.TollgateConfig;
import io.tollgate.gate.Gate;
import io.tollgate.gate.Tenants;
import io.tollgate.limiter.Charge;
import io.tollgate.limiter.ForwardingRateLimiter;
import io.tollgate.limiter.JointDecision;
import io.tollgate.limiter.Limits;
import io.tollgate.limiter.RateLimiter;
import io.tollgate.limiter.Subject;
import io.tollgate.spring.boot.app.TestApp;
import io.tollgate.testkit.llm.Fault;
import io.tollgate.testkit.llm.MockLlmServer;
import io.tollgate.testkit.redis.RedisServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.blockhound.BlockHound;
import reactor.core.publisher.Mono;
import reactor.netty.http.HttpResources;

/**
 * Boot's {@code WebClient} on Reactor Netty, called from inside one of Reactor Netty's event loops
 * with a tenant bound there, under BlockHound: Tollgate counts, reserves in Redis, falls back and
 * settles without a blocking call on the loop, the tenant still charged. The app's limiter bean
 * (Redis's, noting the thread of each reserve and release) shows where the round trips ran.
 *
 * <p>Its own surefire execution ({@code blockhound}: BlockHound on JDK 13+ needs
 * {@code -XX:+AllowRedefinitionToAddDeleteMethods}, and is installed for the whole JVM).
 */
@Tag("blockhound")
@SpringBootTest(classes = {TestApp.class, WebClientEventLoopBlockHoundTest.RecordingLimiterConfig.class},
    webEnvironment = SpringBootTest.WebEnvironment.NONE, properties = {
        "tollgate.providers.openai.limits.requests-per-hour=2",
        "tollgate.providers.openai.fallbacks=backup",
        "tollgate.providers.backup.api-key=sk-backup",
        "tollgate.providers.backup.limits.requests-per-hour=1",
        "tollgate.providers.backup.model-map.gpt-4o=gpt-4o-mini",
        "tollgate.tenants.header=X-Tenant-Id",
        "tollgate.tenants.limits.requests-per-hour=10"})
class WebClientEventLoopBlockHoundTest {

  static final RedisServer redis = RedisServer.start();
  static final MockLlmServer primary = MockLlmServer.start();
  static final MockLlmServer backup = MockLlmServer.start();
  /** Every blocking call BlockHound saw on a non-blocking thread, with the thread's name. */
  static final List<String> BLOCKING_CALLS = new CopyOnWriteArrayList<>();

  @Autowired
  WebClient.Builder webClients;
  @Autowired
  RecordingLimiter limiter;
  @Autowired
  Gate gate;

  @DynamicPropertySource
  static void fixtures(DynamicPropertyRegistry registry) {
    registry.add("tollgate.redis.url", () -> redis.uri().toString());
    registry.add("tollgate.providers.openai.base-url", primary::baseUrl);
    registry.add("tollgate.providers.backup.base-url", backup::baseUrl);
  }

  @BeforeAll
  static void installBlockHound() {
    // noted, not thrown: the call goes on, and the test reports every blocking call at once
    BlockHound.install(builder -> builder.blockingMethodCallback(method ->
        BLOCKING_CALLS.add(method + " on " + Thread.currentThread().getName())));
  }

  @AfterAll
  static void stopFixtures() {
    primary.close();
    backup.close();
    redis.close();
  }

  @Test
  void callsFromAnEventLoopAreLimitedAndFallBackWithoutBlockingIt() throws Exception {
    Executor loop = HttpResources.get().onClient(true).next();
    // BlockHound watches this loop: a sleep there is reported
    CompletableFuture<Void> slept = new CompletableFuture<>();
    loop.execute(() -> {
      try {
        Thread.sleep(1);
        slept.complete(null);
      } catch (InterruptedException e) {
        slept.completeExceptionally(e);
      }
    });
    slept.get(10, TimeUnit.SECONDS);
    assertThat(BLOCKING_CALLS).singleElement().asString()
        .startsWith("java.lang.Thread.sleep on reactor-http-");
    BLOCKING_CALLS.clear();
    primary.script().next(1, Fault.rateLimited(Duration.ZERO));
    WebClient client = webClients.baseUrl(primary.baseUrl()).build();

    List<Integer> statuses = new ArrayList<>();
    List<String> subscribers = new CopyOnWriteArrayList<>();
    for (int i = 0; i < 4; i++) {
      CompletableFuture<Integer> status = new CompletableFuture<>();
      loop.execute(() -> {
        try (Tenants.Scope bound = Tenants.bind("acme")) {
          subscribers.add(Thread.currentThread().getName());
          client.post().uri("/v1/chat/completions")
              .header("Authorization", "Bearer sk-app")
              .contentType(MediaType.APPLICATION_JSON)
              .bodyValue(Map.of("model", "gpt-4o", "max_tokens", 16,
                  "messages", List.of(Map.of("role", "user", "content", "Say hello"))))
              .exchangeToMono(response -> response.bodyToMono(String.class).defaultIfEmpty("")
                  .thenReturn(response.statusCode().value()))
              .subscribe(status::complete, status::completeExceptionally);
        }
      });
      statuses.add(status.get(30, TimeUnit.SECONDS));
    }

    assertThat(subscribers).hasSize(4).allSatisfy(thread -> assertThat(thread).startsWith("reactor-http-"));
    assertThat(statuses).as("primary, backup after the primary's 429, primary, Tollgate's 429")
        .containsExactly(200, 200, 200, 429);
    assertThat(primary.requestCount()).isEqualTo(3);
    assertThat(backup.requestCount()).isEqualTo(1);
    assertThat(backup.requests().get(0).header("authorization")).isEqualTo("Bearer sk-backup");
    assertThat(BLOCKING_CALLS).as("blocking calls on non-blocking threads").isEmpty();
    assertThat(limiter.reserved).as("1 + 2 (the primary refused upstream, the backup) + 1 + 1 (the "
        + "primary denied; the backup, its quota used up, no longer ranked)")
        .hasSize(5).allSatisfy(thread -> assertThat(thread).startsWith("boundedElastic-"));
    assertThat(limiter.released).as("the primary's reservation, after its 429")
        .singleElement().asString().startsWith("boundedElastic-");
    assertThat(gate.awaitSettled(Duration.ofSeconds(30))).isTrue();
    TollgateConfig config = gate.config();
    Limits acme = config.tenants().orElseThrow().limitsFor("acme").toLimits();
    assertThat(limiter.reserve(Subject.of("tenant", "acme"), acme, 0, 1).remainingRequests())
        .as("the tenant bound on the loop, charged for the three calls that went out").isEqualTo(7);
  }

  @TestConfiguration
  static class RecordingLimiterConfig {
    @Bean(destroyMethod = "close")
    RecordingLimiter tollgateRateLimiter(TollgateConfig config, RedisConnection redis) {
      return new RecordingLimiter(Limiters.create(config.redis(), redis));
    }
  }

  /** The starter's Redis limiter, noting the thread of each call's reserve and release. */
  static final class RecordingLimiter extends ForwardingRateLimiter {
    final List<String> reserved = new CopyOnWriteArrayList<>();
    final List<String> released = new CopyOnWriteArrayList<>();

    RecordingLimiter(RateLimiter redis) {
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
