package io.tollgate.status;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tollgate.config.TollgateConfigLoader;
import io.tollgate.gate.Gate;
import io.tollgate.overrides.OverrideTarget;
import io.tollgate.testkit.redis.RedisServer;
import java.io.ByteArrayInputStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The live overrides through the status page's API ({@code ?view=overrides}), on a gate sharing a
 * real Redis: a change needs the configured token, from loopback too; a wrong key is refused
 * naming it; what is set is in force on the gate and read back with its audit entry.
 */
class StatusPageOverridesTest {

  private static final String TOKEN = "token-of-the-overrides-tests";
  private static final String API = StatusPage.OVERRIDES_QUERY;
  private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();
  private static final ObjectMapper JSON = new ObjectMapper();

  private static RedisServer redis;
  private Gate gate;

  @BeforeAll
  static void startRedis() {
    redis = RedisServer.start();
  }

  @AfterAll
  static void stopRedis() {
    redis.close();
  }

  @BeforeEach
  void fresh() {
    if (!redis.isRunning()) {
      redis.restart();
    }
    redis.flushAll();
  }

  @AfterEach
  void close() {
    if (gate != null) {
      gate.close();
    }
  }

  /** A page of a gate on the test's Redis, with {@code status} (YAML under {@code tollgate:}). */
  private StatusPage page(String status) {
    gate = Gate.create(TollgateConfigLoader.builder().environment(Map.of()).build().fromYaml("""
        tollgate:
          redis: { url: %s, timeout: 2s }
          providers:
            openai:
              base-url: https://api.openai.com
              limits: { requests-per-minute: 500 }
          tenants:
            header: X-Tenant-Id
            limits: { requests-per-minute: 60 }
        %s""".formatted(redis.uri(), status)));
    return StatusPage.of(gate);
  }

  private StatusPage pageWithToken() {
    return page("  status: { token: " + TOKEN + " }\n");
  }

  private static StatusPage.Response post(StatusPage page, String authorization, String body) {
    return post(page, authorization, "application/json", body.getBytes(StandardCharsets.UTF_8));
  }

  private static StatusPage.Response post(StatusPage page, String authorization, String type,
      byte[] body) {
    return page.handle(new StatusPage.Request("POST", API, "application/json", authorization,
        LOOPBACK, false, type, new ByteArrayInputStream(body)));
  }

  private static StatusPage.Response get(StatusPage page, String authorization) {
    return page.handle(new StatusPage.Request("GET", API, "application/json", authorization,
        LOOPBACK, false));
  }

  private static String text(StatusPage.Response response) {
    return new String(response.body(), StandardCharsets.UTF_8);
  }

  /** The JSON of {@code response} without its times, which are Redis's: checked apart. */
  private static JsonNode withoutTimes(StatusPage.Response response) throws Exception {
    JsonNode json = JSON.readTree(response.body());
    json.findParents("at").forEach(node -> {
      assertThat(Instant.parse(node.get("at").asText())).isBeforeOrEqualTo(Instant.now());
      ((ObjectNode) node).remove("at");
    });
    return json;
  }

  @Test
  void withoutAConfiguredTokenTheApiIsReadOnlyFromLoopbackToo() throws Exception {
    StatusPage page = page("");

    StatusPage.Response write = post(page, null,
        "{\"action\":\"set\",\"tenant\":\"acme\",\"limits\":{\"requests-per-minute\":\"600\"}}");
    StatusPage.Response read = get(page, null);

    assertThat(write.status()).isEqualTo(403);
    assertThat(write.headers()).containsEntry("Content-Type", "application/json");
    assertThat(text(write)).isEqualTo("{\"error\":\"changing overrides needs tollgate.status.token,"
        + " sent as a bearer token: without it the status page is read-only\"}");
    assertThat(read.status()).as("reads keep their loopback rule").isEqualTo(200);
    assertThat(text(read)).isEqualTo("{\"version\":0,\"overrides\":[],\"audit\":[]}");
    assertThat(gate.overrides().list()).isEmpty();
  }

  @Test
  void aChangeNeedsTheTokenAndIsMadeByTheBodysAuthorViaTheCallersAddress() throws Exception {
    StatusPage page = pageWithToken();
    String body = "{\"action\":\"set\",\"tenant\":\"acme\",\"limits\":{\"requests-per-minute\":600,"
        + "\"usd-per-day\":\"5.5\"},\"by\":\"alice\"}";

    StatusPage.Response none = post(page, null, body);
    StatusPage.Response wrong = post(page, "Bearer not-the-token-of-these-tests", body);
    StatusPage.Response right = post(page, "Bearer " + TOKEN, body);

    assertThat(none.status()).isEqualTo(401);
    assertThat(none.headers()).containsEntry("WWW-Authenticate", "Bearer realm=\"tollgate\"");
    assertThat(text(none))
        .isEqualTo("{\"error\":\"a valid bearer token is required (tollgate.status.token)\"}");
    assertThat(wrong.status()).isEqualTo(401);
    assertThat(text(wrong)).isEqualTo(text(none));
    assertThat(right.status()).isEqualTo(200);
    assertThat(right.headers()).containsEntry("Content-Type", "application/json")
        .containsEntry("Cache-Control", "no-store");
    assertThat(withoutTimes(right)).isEqualTo(JSON.readTree("""
        {"version":1,"action":"set","label":"tenant acme","by":"alice via 127.0.0.1","before":{},
         "after":{"requests-per-minute":"600","usd-per-day":"5.5"}}"""));
    // in force on this gate at once
    assertThat(gate.overrides().tenantLimits(gate.config().tenants().orElseThrow()
        .subject(OverrideTarget.TENANT_SCOPE, "acme")).orElseThrow().requestsPerMinute())
        .hasValue(600);
  }

  @Test
  void whatWasSetIsReadBackWithItsAuditEntriesNewestFirst() throws Exception {
    StatusPage page = pageWithToken();
    String bearer = "Bearer " + TOKEN;
    post(page, bearer, "{\"action\":\"set\",\"provider\":\"openai\",\"model\":\"GPT-4o\","
        + "\"limits\":{\"tokens-per-minute\":\"9000\"},\"by\":\"alice\"}");
    // limits as a text, as the actuator takes them
    post(page, bearer, "{\"action\":\"set\",\"tenant\":\"acme\",\"limits\":\"requests-per-minute=5\"}");
    StatusPage.Response removed = post(page, bearer,
        "{\"action\":\"remove\",\"tenant\":\"acme\",\"by\":\"bob\"}");
    StatusPage.Response removedAgain = post(page, bearer, "{\"action\":\"remove\",\"tenant\":\"acme\"}");

    StatusPage.Response read = get(page, bearer);

    assertThat(removed.status()).isEqualTo(200);
    assertThat(removedAgain.status()).isEqualTo(404);
    assertThat(text(removedAgain))
        .isEqualTo("{\"error\":\"tenant acme has no live override: nothing changed\"}");
    assertThat(read.status()).isEqualTo(200);
    assertThat(withoutTimes(read)).isEqualTo(JSON.readTree("""
        {"version":3,
         "overrides":[{"label":"model openai/gpt-4o","limits":{"tokens-per-minute":"9000"},
                       "by":"alice via 127.0.0.1"}],
         "audit":[
           {"version":3,"action":"remove","label":"tenant acme","by":"bob via 127.0.0.1",
            "before":{"requests-per-minute":"5"},"after":{}},
           {"version":2,"action":"set","label":"tenant acme","by":"status-page via 127.0.0.1",
            "before":{},"after":{"requests-per-minute":"5"}},
           {"version":1,"action":"set","label":"model openai/gpt-4o","by":"alice via 127.0.0.1",
            "before":{},"after":{"tokens-per-minute":"9000"}}]}"""));
    assertThat(text(read)).as("a tenant is named as typed, never by its hash")
        .doesNotContain("tenant:");
  }

  @Test
  void aWrongKeyOrValueIsRefusedNamingItAndNothingChanges() throws Exception {
    StatusPage page = pageWithToken();
    String bearer = "Bearer " + TOKEN;

    StatusPage.Response misspelt = post(page, bearer,
        "{\"action\":\"set\",\"tenant\":\"acme\",\"limits\":{\"requests-per-minut\":\"600\"}}");
    StatusPage.Response negative = post(page, bearer,
        "{\"action\":\"set\",\"provider\":\"openai\",\"limits\":{\"requests-per-minute\":-5}}");
    StatusPage.Response unknownProvider = post(page, bearer,
        "{\"action\":\"set\",\"provider\":\"azure\",\"limits\":{\"requests-per-minute\":5}}");

    assertThat(misspelt.status()).isEqualTo(400);
    assertThat(JSON.readTree(misspelt.body()).get("error").asText())
        .startsWith("tollgate.tenants.overrides.acme.requests-per-minut ")
        .contains("requests-per-minute");
    assertThat(negative.status()).isEqualTo(400);
    assertThat(JSON.readTree(negative.body()).get("error").asText())
        .isEqualTo("tollgate.providers.openai.limits.requests-per-minute must be > 0, was -5");
    assertThat(unknownProvider.status()).isEqualTo(400);
    assertThat(text(unknownProvider)).isEqualTo("{\"error\":\"tollgate.providers.azure is not a"
        + " configured provider; known: [openai]\"}");
    assertThat(text(get(page, bearer))).isEqualTo("{\"version\":0,\"overrides\":[],\"audit\":[]}");
  }

  @Test
  void aBodyThatIsNotAChangeIsRefusedSayingWhy() {
    StatusPage page = pageWithToken();
    String bearer = "Bearer " + TOKEN;
    String[][] refusals = {
        {"{\"action\":\"set\",\"tenant\":",
            "the body is not JSON: Unexpected end-of-input within/between Object entries"},
        {"[1]", "the body must be a JSON object"},
        {"{\"action\":\"set\",\"tenant\":\"acme\",\"limit\":{}}",
            "unknown field limit; known: action, tenant, provider, model, limits, by"},
        {"{\"action\":\"set\",\"tenant\":\"acme\",\"provider\":\"openai\",\"limits\":{}}",
            "name either a tenant or a provider (and a model on it)"},
        {"{\"action\":\"drop\",\"tenant\":\"acme\"}", "action must be set or remove"},
        {"{\"action\":\"set\",\"tenant\":\"acme\",\"model\":\"gpt-4o\",\"limits\":{}}",
            "a model is named with its provider, not a tenant"},
        {"{\"action\":\"set\",\"tenant\":\"acme\",\"limits\":600}",
            "limits must be an object (limit key → value) or a text of key=value pairs"},
        {"{\"action\":\"set\",\"tenant\":\"acme\",\"limits\":\"600\"}",
            "limits takes key=value pairs separated by commas, such as requests-per-minute=600,"
                + " tokens-per-day=1000000"},
        {"{\"action\":\"set\",\"tenant\":\"acme\",\"limits\":\"usd-per-day=1, usd-per-day=2\"}",
            "limits names usd-per-day twice"},
        {"{\"action\":\"set\",\"tenant\":\"acme\",\"limits\":{\"requests-per-minute\":[600]}}",
            "limits.requests-per-minute must be a number or a text"},
        {"{\"action\":\"remove\",\"tenant\":\"acme\",\"limits\":{\"requests-per-minute\":1}}",
            "remove takes no limits"}};

    for (String[] refusal : refusals) {
      StatusPage.Response response = post(page, bearer, refusal[0]);
      assertThat(response.status()).as(refusal[0]).isEqualTo(400);
      assertThat(text(response)).as(refusal[0]).isEqualTo(
          new String(StatusJson.write(Map.of("error", refusal[1])), StandardCharsets.UTF_8));
    }
    assertThat(gate.overrides().list()).isEmpty();
  }

  @Test
  void aChangeIsJsonOfBoundedSize() {
    StatusPage page = pageWithToken();
    String bearer = "Bearer " + TOKEN;
    byte[] change = "{\"action\":\"set\",\"tenant\":\"acme\",\"limits\":{\"requests-per-minute\":1}}"
        .getBytes(StandardCharsets.UTF_8);
    byte[] large = ("{\"action\":\"set\",\"tenant\":\"acme\",\"by\":\""
        + "x".repeat(StatusPage.MAX_BODY) + "\"}").getBytes(StandardCharsets.UTF_8);

    StatusPage.Response form = post(page, bearer, "application/x-www-form-urlencoded", change);
    StatusPage.Response plain = post(page, bearer, "text/plain", change);
    StatusPage.Response withCharset = post(page, bearer, "application/json; charset=utf-8", change);
    StatusPage.Response tooLarge = post(page, bearer, "application/json", large);
    StatusPage.Response elsewhere = page.handle(new StatusPage.Request("POST", "view=status",
        "application/json", bearer, LOOPBACK, false, "application/json",
        new ByteArrayInputStream(change)));

    assertThat(form.status()).isEqualTo(415);
    assertThat(text(form))
        .isEqualTo("{\"error\":\"a change is sent as Content-Type: application/json\"}");
    assertThat(plain.status()).isEqualTo(415);
    assertThat(withCharset.status()).isEqualTo(200);
    assertThat(tooLarge.status()).isEqualTo(413);
    assertThat(text(tooLarge)).isEqualTo("{\"error\":\"a change takes at most 16384 bytes\"}");
    assertThat(elsewhere.status()).isEqualTo(405);
    assertThat(elsewhere.headers()).containsEntry("Allow", "GET, POST");
    assertThat(gate.overrides().current().version()).isEqualTo(1);
  }

  @Test
  void withRedisDownAChangeAnswers503AndChangesNothing() {
    StatusPage page = pageWithToken();
    redis.stop();

    StatusPage.Response response = post(page, "Bearer " + TOKEN,
        "{\"action\":\"set\",\"tenant\":\"acme\",\"limits\":{\"requests-per-minute\":1}}");

    assertThat(response.status()).isEqualTo(503);
    assertThat(text(response)).startsWith("{\"error\":\"Redis did not answer (")
        .endsWith("): nothing changed\"}");
    assertThat(gate.overrides().current().version()).isZero();
  }
}
