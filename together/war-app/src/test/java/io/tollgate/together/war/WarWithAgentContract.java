package io.tollgate.together.war;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tollgate.config.TenantsConfig;
import io.tollgate.config.TollgateConfig;
import io.tollgate.config.TollgateConfigLoader;
import io.tollgate.limiter.Dimension;
import io.tollgate.limiter.Limit;
import io.tollgate.limiter.Limits;
import io.tollgate.limiter.Subject;
import io.tollgate.limiter.internal.RedisKeys;
import io.tollgate.servlet.TollgateFilter;
import io.tollgate.testkit.llm.MockLlmServer;
import io.tollgate.testkit.llm.RecordedRequest;
import io.tollgate.testkit.redis.RedisServer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import redis.clients.jedis.Jedis;

/**
 * The built WAR (the filter and the core in WEB-INF/lib, OkHttp 4 beside them) deployed in a
 * container in a JVM of its own, with the agent attached: one Redis, a primary and a backup mock
 * provider. The filter charges each request to its tenant's inbound bucket and binds the tenant;
 * the agent, whose copy of the core is its own, reads that tenant through its bridge and charges
 * the tenant's outbound bucket for the calls the request makes, enforcing the provider's limit and
 * rerouting to the backup. Each subclass is one container.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
abstract class WarWithAgentContract {

  private static final String APP_KEY = "sk-app-primary";
  private static final String BACKUP_KEY = "sk-backup";
  private static final String CHAT = "{\"model\":\"gpt-4o\",\"max_tokens\":50,"
      + "\"messages\":[{\"role\":\"user\",\"content\":\"Say hello.\"}]}";
  private static final int PRIMARY_PROMPT = 30;
  private static final int PRIMARY_COMPLETION = 12;
  private static final int BACKUP_PROMPT = 25;
  private static final int BACKUP_COMPLETION = 8;
  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpClient client = HttpClient.newBuilder()
      .version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10)).build();
  private RedisServer redis;
  private MockLlmServer primary;
  private MockLlmServer backup;
  private Path war;
  private List<Path> hostClassPath;
  private TollgateConfig warConfig;
  private TollgateConfig agentConfig;
  private HostJvm host;

  /** {@code tomcat}, {@code jetty}: names the run directory. */
  abstract String container();

  abstract String hostMainClass();

  /** Which entries of the test class path (with '/' separators) are the container's jars. */
  abstract boolean isContainerJar(String classPathEntry);

  /** How the host main names the server it started. */
  abstract String serverNamePrefix();

  @BeforeAll
  void deployTheWarUnderTheAgent() throws Exception {
    war = Path.of(System.getProperty("together.war", "target/tollgate-together-war-app.war"));
    assertThat(war).as("the WAR is built by package before integration-test").isRegularFile();
    Path agentJar = Path.of(System.getProperty("tollgate.agent.jar", "../../agent/target/tollgate-agent.jar"));
    assertThat(agentJar).as("the agent jar (built by the agent module's package)").isRegularFile();
    Path runs = Path.of(System.getProperty("together.runs", "target/host-runs")).resolve(container());

    redis = RedisServer.start();
    primary = MockLlmServer.start().usage(PRIMARY_PROMPT, PRIMARY_COMPLETION);
    backup = MockLlmServer.start().usage(BACKUP_PROMPT, BACKUP_COMPLETION);

    Map<String, String> environment = Map.of(
        "TOLLGATE_REDIS_URL", redis.uri().toString(),
        "BACKUP_API_KEY", BACKUP_KEY);
    Files.createDirectories(runs);
    Path agentYaml = runs.resolve("agent-tollgate.yaml");
    Files.writeString(agentYaml, """
        tollgate:
          redis:
            url: ${TOLLGATE_REDIS_URL}
            timeout: 2s # a cold JVM's first calls may be slow; a timeout would fail open
          providers:
            openai:
              base-url: %s
              api: openai
              limits:
                requests-per-hour: 2
              fallbacks: [backup]
            backup:
              base-url: %s
              api: openai
              api-key: ${BACKUP_API_KEY}
              model-map:
                gpt-4o: gpt-4o-mini
              limits:
                requests-per-hour: 2
          tenants:
            header: X-Tenant-Id
            limits:
              algorithm: sliding-window
              requests-per-hour: 5
              tokens-per-day: 100000
        """.formatted(primary.baseUrl(), backup.baseUrl()));
    TollgateConfigLoader loader = TollgateConfigLoader.builder().environment(environment).build();
    agentConfig = loader.load(agentYaml);
    warConfig = loader.fromYaml(warEntry("WEB-INF/classes/tollgate.yaml"));

    hostClassPath = new ArrayList<>();
    hostClassPath.add(Path.of(System.getProperty("together.host.classes", "target/host-classes")));
    hostClassPath.addAll(HostJvm.fromTestClassPath(this::isContainerJar));
    host = HostJvm.start(runs, List.of(
            "-javaagent:" + agentJar.toAbsolutePath() + "=config=" + agentYaml.toAbsolutePath(),
            "-Dchat.upstream=" + primary.baseUrl(),
            "-Dchat.api-key=" + APP_KEY),
        environment, hostClassPath, hostMainClass(), war);
  }

  @AfterAll
  void stopEverything() throws Exception {
    try (AutoCloseable r = redis; AutoCloseable p = primary; AutoCloseable b = backup) {
      if (host != null) {
        host.close();
      }
    }
  }

  @Test
  @Order(1)
  void theHostRunsTheContainerAloneAndTheWarCarriesTollgateAndOkHttp() throws Exception {
    assertThat(host.server()).startsWith(serverNamePrefix());
    assertThat(hostClassPath).as("the container's jars and the host main, nothing more")
        .hasSizeGreaterThan(1)
        .allSatisfy(entry -> assertThat(entry.getFileName().toString())
            .doesNotContainIgnoringCase("tollgate").doesNotContainIgnoringCase("okhttp")
            .doesNotContainIgnoringCase("kotlin"));
    for (Path entry : hostClassPath) {
      if (Files.isRegularFile(entry)) {
        try (JarFile jar = new JarFile(entry.toFile())) {
          assertThat(Collections.list(jar.entries())).as(entry.toString())
              .extracting(ZipEntry::getName)
              .noneMatch(name -> name.startsWith("io/tollgate/") || name.startsWith("okhttp3/"));
        }
      }
    }
    try (JarFile jar = new JarFile(war.toFile())) {
      assertThat(Collections.list(jar.entries())).extracting(ZipEntry::getName)
          .anyMatch(name -> name.matches("WEB-INF/lib/tollgate-servlet-filter-.*\\.jar"))
          .anyMatch(name -> name.matches("WEB-INF/lib/tollgate-core-.*\\.jar"))
          .anyMatch(name -> name.matches("WEB-INF/lib/okhttp-4\\..*\\.jar"))
          .noneMatch(name -> name.contains("tollgate-agent"))
          .noneMatch(name -> name.contains("servlet-api"));
    }
    assertThat(agentConfig.tenants()).as("the agent's tenants: the same as the filter's")
        .isEqualTo(warConfig.tenants()).isPresent();
  }

  @Test
  @Order(2)
  void aRequestWithoutTenantGetsTheFiltersA400AndReachesNoProvider() throws Exception {
    int before = primary.requestCount() + backup.requestCount();
    for (String path : List.of("okhttp", "jdk")) {
      HttpResponse<String> missing = chat(path, null);
      assertThat(missing.statusCode()).isEqualTo(400);
      assertThat(missing.body()).isEqualTo("{\"error\":{\"message\":\"Missing tenant: this endpoint "
          + "needs the X-Tenant-Id header to know who is calling. (Tollgate)\","
          + "\"type\":\"invalid_request_error\",\"param\":null,\"code\":\"missing_tenant\"}}");
    }
    assertThat(primary.requestCount() + backup.requestCount()).isEqualTo(before);
  }

  @Test
  @Order(3)
  void chargesTheTenantInboundAndOutboundAndLimitsAndReroutesItsCalls() throws Exception {
    List<HttpResponse<String>> answers = new ArrayList<>();
    for (String path : List.of("okhttp", "jdk", "okhttp", "jdk", "okhttp", "jdk")) {
      answers.add(chat(path, "acme"));
    }
    assertThat(answers).extracting(HttpResponse::statusCode)
        .as("2 by the primary, 2 by the backup, the agent's 429, the filter's 429")
        .containsExactly(200, 200, 200, 200, 429, 429);
    for (int i = 0; i < 5; i++) {
      assertThat(answers.get(i).headers().firstValue("x-ratelimit-remaining-requests"))
          .as("the filter admitted call %d", i + 1).hasValue(Integer.toString(4 - i));
    }
    for (int i = 0; i < 4; i++) {
      boolean fromPrimary = i < 2;
      JsonNode answer = JSON.readTree(answers.get(i).body());
      assertThat(answer.path("model").asText()).isEqualTo(fromPrimary ? "gpt-4o" : "gpt-4o-mini");
      assertThat(answer.path("usage").path("total_tokens").asInt())
          .isEqualTo(fromPrimary ? PRIMARY_PROMPT + PRIMARY_COMPLETION : BACKUP_PROMPT + BACKUP_COMPLETION);
      assertThat(answers.get(i).headers().firstValue("x-tollgate")).isEmpty();
    }

    // 5: the filter admitted it (its 5th); the agent refused the outbound call, both providers
    // being at their limit, and the servlet handed its 429 back
    HttpResponse<String> agents = answers.get(4);
    assertThat(agents.headers().firstValue("x-tollgate")).hasValue("rate-limited");
    assertThat(agents.headers().firstValue("Retry-After")).hasValueSatisfying(
        seconds -> assertThat(Integer.parseInt(seconds)).isPositive());
    JsonNode agentError = JSON.readTree(agents.body()).path("error");
    assertThat(agentError.path("code").asText()).isEqualTo("rate_limit_exceeded");
    assertThat(agentError.path("message").asText()).contains("Limit 2, Remaining 0").endsWith("(Tollgate)");

    // 6: the filter's own 429: acme's 5 requests an hour are spent; the servlet never ran
    HttpResponse<String> filters = answers.get(5);
    assertThat(filters.headers().firstValue("x-tollgate")).hasValue("rate-limited");
    assertThat(filters.headers().firstValue("x-ratelimit-limit-requests")).hasValue("5");
    assertThat(filters.headers().firstValue("x-ratelimit-remaining-requests")).hasValue("0");
    assertThat(filters.headers().firstValue("Retry-After")).isPresent();
    assertThat(filters.body()).startsWith("{\"error\":{\"message\":\"Rate limit reached on requests "
        + "per hour: Limit 5, Remaining 0.").contains("\"code\":\"rate_limit_exceeded\"");

    // Each outbound call reached exactly one provider once: OkHttp, then the JDK client, on each
    List<RecordedRequest> atPrimary = primary.requests();
    assertThat(atPrimary).hasSize(2).allSatisfy(r -> {
      assertThat(r.header("authorization")).isEqualTo("Bearer " + APP_KEY);
      assertThat(r.json().path("model").asText()).isEqualTo("gpt-4o");
    });
    List<RecordedRequest> atBackup = backup.requests();
    assertThat(atBackup).hasSize(2).allSatisfy(r -> {
      assertThat(r.header("authorization")).isEqualTo("Bearer " + BACKUP_KEY);
      assertThat(r.json().path("model").asText()).isEqualTo("gpt-4o-mini");
      assertThat(r.headers().values()).as("the app's key never reaches the backup")
          .allSatisfy(values -> assertThat(values).noneMatch(v -> v.contains(APP_KEY)));
      assertThat(r.bodyText()).doesNotContain(APP_KEY);
    });
    for (List<RecordedRequest> arrived : List.of(atPrimary, atBackup)) {
      assertThat(arrived).extracting(r -> r.header("user-agent"))
          .satisfiesExactly(
              okhttp -> assertThat(okhttp).startsWith("okhttp/4."),
              jdk -> assertThat(jdk).startsWith("Java-http-client/"));
    }

    // Redis: acme's outbound bucket (the agent's) holds the 4 calls that reached a provider and
    // the tokens the providers reported for them; its inbound bucket (the filter's) the 5 requests
    // it admitted, settled with the usage each answer reported (the agent's 429: none)
    long outboundTokens = 2L * (PRIMARY_PROMPT + PRIMARY_COMPLETION)
        + 2L * (BACKUP_PROMPT + BACKUP_COMPLETION);
    Limits limits = warConfig.tenants().orElseThrow().limitsFor("acme").toLimits();
    Subject outbound = Subject.of("tenant", "acme");
    Subject inbound = Subject.of(TollgateFilter.SCOPE, "acme");
    try (Jedis jedis = redis.jedis()) {
      assertSettledTo(jedis, outbound, limits, new Charged(4, outboundTokens), "outbound");
      assertSettledTo(jedis, inbound, limits, new Charged(5, outboundTokens), "inbound");
      assertThat(jedis.keys("*")).as("no raw tenant id in Redis").noneMatch(key -> key.contains("acme"));
    }
  }

  @Test
  @Order(4)
  void theAgentStartedAndNeverFailedAndTheContainerStops() throws Exception {
    assertThat(host.stop()).as("the host's exit code").isZero();
    List<String> stderr = host.stderr();
    assertThat(stderr).as(String.join("\n", stderr))
        .filteredOn(line -> line.startsWith("[tollgate]"))
        .singleElement().asString()
        .startsWith("[tollgate] on: mode enforce, providers [openai, backup], limiter redis");
    assertThat(stderr).noneMatch(line -> line.contains("internal failure"));
    // Tomcat names, at undeploy, each thread still running with the app's loader as its context
    assertThat(stderr).as("no thread of Tollgate's holds the app's loader")
        .noneMatch(line -> line.contains("started a thread named [tollgate-"));
  }

  private HttpResponse<String> chat(String path, String tenant) throws IOException, InterruptedException {
    HttpRequest.Builder request = HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + host.port() + "/chat/" + path))
        .timeout(Duration.ofSeconds(30))
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(CHAT));
    if (tenant != null) {
      request.header("X-Tenant-Id", tenant);
    }
    return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private String warEntry(String name) throws IOException {
    try (JarFile jar = new JarFile(war.toFile())) {
      ZipEntry entry = jar.getEntry(name);
      assertThat(entry).as(name).isNotNull();
      return new String(jar.getInputStream(entry).readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  /** What a subject's sliding windows hold: requests and tokens charged (this window and the last). */
  record Charged(long requests, long tokens) {}

  private static Charged charged(Jedis jedis, Subject subject, Limits limits) {
    Map<String, String> state = jedis.hgetAll(RedisKeys.stateKey(subject));
    assertThat(state).as(RedisKeys.stateKey(subject)).isNotEmpty();
    long requests = -1;
    long tokens = -1;
    for (Limit limit : limits.all()) {
      String field = limit.stateField();
      assertThat(field).as("sliding window: 'w' after the dimension").matches("[rt]w.*");
      long count = Long.parseLong(state.getOrDefault(field, "0"))
          + Long.parseLong(state.getOrDefault(field + ":p", "0"));
      if (limit.dimension() == Dimension.REQUESTS) {
        requests = count;
      } else {
        tokens = count;
      }
    }
    return new Charged(requests, tokens);
  }

  /**
   * What {@code subject} is charged once its settles landed: the agent settles off the call's
   * thread, so the charge is read again until it matches, for up to 10 s.
   */
  private static void assertSettledTo(Jedis jedis, Subject subject, Limits limits, Charged expected,
      String what) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    Charged seen = charged(jedis, subject, limits);
    while (!seen.equals(expected) && System.nanoTime() < deadline) {
      Thread.sleep(20);
      seen = charged(jedis, subject, limits);
    }
    assertThat(seen).as(what).isEqualTo(expected);
  }
}
