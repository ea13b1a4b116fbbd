package io.tollgate.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tollgate.spring.boot.app.TestApp;
import io.tollgate.testkit.redis.RedisServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * {@code /actuator/health} of a real Boot app whose Redis stops: down only when the instance cannot
 * serve (fail-closed), up and saying it is degraded when the limiter decides locally (fail-open).
 */
class HealthAppTest {

  static final ObjectMapper JSON = new ObjectMapper();

  private final HttpClient http = HttpClient.newHttpClient();

  @Test
  void failOpenWithRedisDownIsUpAndSaysItIsDegraded() throws Exception {
    try (RedisServer redis = RedisServer.start(); ConfigurableApplicationContext app = run(redis)) {
      HttpResponse<String> reachable = health(app);
      redis.stop();
      HttpResponse<String> unreachable = health(app);

      assertThat(reachable.statusCode()).isEqualTo(200);
      assertThat(tollgate(reachable)).isEqualTo(JSON.readTree("""
          {"status":"UP","details":{"mode":"enforce","limiter":"redis","onFailure":"fail-open",
           "redisReachable":true,"limiterDegraded":false,"degraded":false,
           "breakers":{"openai":"closed"},"openBreakers":[]}}"""));
      assertThat(unreachable.statusCode()).isEqualTo(200);
      assertThat(JSON.readTree(unreachable.body()).get("status").asText()).isEqualTo("UP");
      assertThat(tollgate(unreachable)).isEqualTo(JSON.readTree("""
          {"status":"UP","details":{"mode":"enforce","limiter":"redis","onFailure":"fail-open",
           "redisReachable":false,"limiterDegraded":false,"degraded":true,
           "reason":"Redis unreachable: deciding locally with 0.5 of each limit (on-failure: fail-open)",
           "breakers":{"openai":"closed"},"openBreakers":[]}}"""));
    }
  }

  @Test
  void failClosedWithRedisDownIsDownUntilItAnswersAgain() throws Exception {
    try (RedisServer redis = RedisServer.start();
        ConfigurableApplicationContext app = run(redis, "--tollgate.redis.on-failure=fail-closed")) {
      HttpResponse<String> reachable = health(app);
      redis.stop();
      HttpResponse<String> unreachable = health(app);
      redis.restart();
      HttpResponse<String> again = health(app);

      assertThat(reachable.statusCode()).isEqualTo(200);
      assertThat(tollgate(reachable).get("status").asText()).isEqualTo("UP");
      assertThat(unreachable.statusCode()).isEqualTo(503);
      assertThat(JSON.readTree(unreachable.body()).get("status").asText()).isEqualTo("DOWN");
      assertThat(tollgate(unreachable)).isEqualTo(JSON.readTree("""
          {"status":"DOWN","details":{"mode":"enforce","limiter":"redis","onFailure":"fail-closed",
           "redisReachable":false,"limiterDegraded":false,"degraded":true,
           "reason":"Redis unreachable: denying every limited call until it answers (on-failure: fail-closed)",
           "breakers":{"openai":"closed"},"openBreakers":[]}}"""));
      assertThat(again.statusCode()).isEqualTo(200);
      assertThat(tollgate(again).at("/details/redisReachable").asBoolean()).isTrue();
    }
  }

  private static ConfigurableApplicationContext run(RedisServer redis, String... more) {
    SpringApplication app = new SpringApplication(TestApp.class);
    String[] args = {"--spring.main.banner-mode=off", "--server.port=0",
        "--tollgate.redis.url=" + redis.uri(),
        "--tollgate.redis.local-share=0.5",
        "--tollgate.providers.openai.base-url=http://127.0.0.1:9",
        "--management.endpoint.health.show-details=always"};
    String[] all = java.util.stream.Stream.concat(java.util.Arrays.stream(args), java.util.Arrays.stream(more))
        .toArray(String[]::new);
    return app.run(all);
  }

  private HttpResponse<String> health(ConfigurableApplicationContext app) throws Exception {
    URI uri = URI.create("http://127.0.0.1:" + app.getEnvironment().getProperty("local.server.port") + "/actuator/health");
    return http.send(HttpRequest.newBuilder(uri).GET().build(), HttpResponse.BodyHandlers.ofString());
  }

  private static JsonNode tollgate(HttpResponse<String> health) throws Exception {
    return JSON.readTree(health.body()).at("/components/tollgate");
  }
}
