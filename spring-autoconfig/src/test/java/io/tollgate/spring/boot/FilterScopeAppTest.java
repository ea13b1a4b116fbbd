package io.tollgate.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.tollgate.spring.boot.app.TestApp;
import io.tollgate.testkit.redis.RedisServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Where the starter's filter applies, in a real Boot app on an embedded Tomcat with a real Redis:
 * without {@code tollgate.filter.url-patterns} every request of the app except the actuator's and
 * error dispatches, with them exactly those patterns; and the one start-up line that says so.
 */
@ExtendWith(OutputCaptureExtension.class)
class FilterScopeAppTest {

  static final RedisServer redis = RedisServer.start();
  static final String CHAT = "{\"model\":\"gpt-4o\",\"messages\":[{\"role\":\"user\",\"content\":\"Say hello\"}],\"max_tokens\":16}";
  static final String MISSING_TENANT = "{\"error\":{\"message\":\"Missing tenant: this endpoint needs the X-Tenant-Id header"
      + " to know who is calling. (Tollgate)\",\"type\":\"invalid_request_error\",\"param\":null,\"code\":\"missing_tenant\"}}";
  static final String LOGGER = "INFO io.tollgate.spring.boot.TollgateServletFilterAutoConfiguration: ";
  static final ObjectMapper JSON = new ObjectMapper();

  private final HttpClient http = HttpClient.newHttpClient();

  @AfterAll
  static void stopRedis() {
    redis.close();
  }

  @BeforeEach
  void freshLimits() {
    redis.flushAll();
  }

  @Test
  void withoutUrlPatternsEveryRequestButTheActuatorsIsLimited(CapturedOutput output) throws Exception {
    try (ConfigurableApplicationContext app = run()) {
      URI base = base(app, "local.server.port");
      HttpResponse<String> anonymous = chat(base.resolve("/chat"), null);
      List<Integer> statuses = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        statuses.add(chat(base.resolve("/chat"), "acme").statusCode());
      }
      HttpResponse<String> health = get(base.resolve("/actuator/health"));
      HttpResponse<String> unknownActuatorPath = get(base.resolve("/actuator/nowhere"));

      assertThat(anonymous.statusCode()).isEqualTo(400);
      assertThat(anonymous.body()).isEqualTo(MISSING_TENANT);
      assertThat(statuses).containsExactly(200, 200, 429);
      assertThat(health.statusCode()).isEqualTo(200);
      assertThat(JSON.readTree(health.body()).get("status").asText()).isEqualTo("UP");
      // its error page is an ERROR dispatch to /error, which the filter is not mapped to: no tenant asked
      assertThat(unknownActuatorPath.statusCode()).isEqualTo(404);
      assertThat(startUpLines(output)).containsExactly(LOGGER + "Tollgate filter: every request except /actuator/** and"
          + " error dispatches; tenant from header X-Tenant-Id (missing: reject)");
    }
  }

  @Test
  void explicitUrlPatternsAreTheOnlyRequestsFiltered(CapturedOutput output) throws Exception {
    try (ConfigurableApplicationContext app = run("tollgate.filter.url-patterns=/v1/*")) {
      URI base = base(app, "local.server.port");
      HttpResponse<String> own = chat(base.resolve("/chat"), null);
      HttpResponse<String> openAiPath = chat(base.resolve("/v1/chat/completions"), null);

      assertThat(own.statusCode()).isEqualTo(200);
      assertThat(own.headers().firstValue("x-ratelimit-limit-requests")).isEmpty();
      assertThat(openAiPath.statusCode()).isEqualTo(400);
      assertThat(openAiPath.body()).isEqualTo(MISSING_TENANT);
      assertThat(startUpLines(output)).containsExactly(LOGGER + "Tollgate filter: requests to /v1/* except error"
          + " dispatches; tenant from header X-Tenant-Id (missing: reject)");
    }
  }

  @Test
  void theActuatorOnItsOwnPortIsNeverFilteredAndItsPathOnTheAppsPortIs(CapturedOutput output) throws Exception {
    try (ConfigurableApplicationContext app = run("management.server.port=0")) {
      URI base = base(app, "local.server.port");
      URI management = base(app, "local.management.port");
      HttpResponse<String> health = get(management.resolve("/actuator/health"));
      HttpResponse<String> notTheActuator = get(base.resolve("/actuator/health"));

      assertThat(management.getPort()).isNotEqualTo(base.getPort());
      assertThat(health.statusCode()).isEqualTo(200);
      assertThat(JSON.readTree(health.body()).get("status").asText()).isEqualTo("UP");
      assertThat(notTheActuator.statusCode()).isEqualTo(400);
      assertThat(startUpLines(output)).containsExactly(LOGGER + "Tollgate filter: every request except error"
          + " dispatches; tenant from header X-Tenant-Id (missing: reject)");
    }
  }

  @Test
  void theActuatorIsFoundUnderTheServletPathAndItsOwnBasePath(CapturedOutput output) throws Exception {
    try (ConfigurableApplicationContext app = run("spring.mvc.servlet.path=/api",
        "management.endpoints.web.base-path=/ops/", "tollgate.filter.missing-tenant=default:guests")) {
      URI base = base(app, "local.server.port");
      HttpResponse<String> health = get(base.resolve("/api/ops/health"));
      HttpResponse<String> guest = chat(base.resolve("/api/chat"), null);
      // the container's view of it is /api/ops/health, the raw path's is not: views that disagree are filtered
      HttpResponse<String> disguised = chat(URI.create(base + "/api/chat/../ops/health"), null);

      assertThat(health.statusCode()).isEqualTo(200);
      assertThat(health.headers().firstValue("x-ratelimit-limit-requests")).isEmpty();
      assertThat(guest.statusCode()).isEqualTo(200);
      assertThat(guest.headers().firstValue("x-ratelimit-remaining-requests")).contains("1");
      assertThat(disguised.headers().firstValue("x-ratelimit-remaining-requests")).contains("0");
      assertThat(startUpLines(output)).containsExactly(LOGGER + "Tollgate filter: every request except /api/ops/** and"
          + " error dispatches; tenant from header X-Tenant-Id (missing: default:guests)");
    }
  }

  private static ConfigurableApplicationContext run(String... properties) {
    List<String> args = new ArrayList<>(List.of("--spring.main.banner-mode=off", "--server.port=0",
        "--tollgate.redis.url=" + redis.uri(),
        "--tollgate.tenants.header=X-Tenant-Id",
        "--tollgate.tenants.limits.requests-per-hour=2"));
    Stream.of(properties).map(property -> "--" + property).forEach(args::add);
    return new SpringApplication(TestApp.class).run(args.toArray(String[]::new));
  }

  /**
   * The start-up lines as level, logger and message, whatever the console pattern: logging that an
   * earlier app of this JVM set up (a cached test context) is not set up again with this one's.
   */
  private static List<String> startUpLines(CapturedOutput output) {
    return output.getOut().lines().filter(line -> line.contains("Tollgate filter"))
        .map(line -> (line.contains("INFO") ? "INFO " : "not INFO ")
            + (line.contains("TollgateServletFilterAutoConfiguration")
                ? "io.tollgate.spring.boot.TollgateServletFilterAutoConfiguration" : "another logger")
            + ": " + line.substring(line.indexOf("Tollgate filter")))
        .toList();
  }

  private static URI base(ConfigurableApplicationContext app, String portProperty) {
    return URI.create("http://127.0.0.1:" + app.getEnvironment().getProperty(portProperty));
  }

  private HttpResponse<String> chat(URI uri, String tenant) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(uri)
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(CHAT));
    if (tenant != null) {
      request.header("X-Tenant-Id", tenant);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> get(URI uri) throws Exception {
    return http.send(HttpRequest.newBuilder(uri).GET().build(), HttpResponse.BodyHandlers.ofString());
  }
}
