package io.tollgate.gate;

import static io.tollgate.gate.GateTestSupport.CHAT;
import static io.tollgate.gate.GateTestSupport.chat;
import static io.tollgate.gate.GateTestSupport.readBody;
import static io.tollgate.gate.GateTestSupport.status;
import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.config.LimitsConfig;
import io.tollgate.config.TenantsConfig;
import io.tollgate.config.TollgateConfig;
import io.tollgate.limiter.Dimension;
import io.tollgate.limiter.LimitProbe;
import io.tollgate.limiter.Subject;
import io.tollgate.llm.SyntheticResponse;
import io.tollgate.telemetry.TelemetryCapture;
import io.tollgate.telemetry.TelemetryNames;
import io.tollgate.telemetry.TollgateAttributes;
import io.tollgate.testkit.llm.MockLlmServer;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Users inside a tenant (issue 31, {@code tenants.user-header} and {@code user-limits}): each call
 * or request of a user is charged to the user, its tenant (and outbound the provider account) in
 * one all-or-none decision, so a user never exceeds its own limits nor its tenant's, and a call one
 * of them refuses is charged to none of them. On a real in-memory limiter and a real Redis.
 */
class GateUsersTest {

  /** What one of the 16 threads does: {@code calls} calls as {@code user}. */
  private record Share(String user, int calls) {}

  /**
   * Sixteen threads: u1 on half of them, 80 calls for its 20; the others 30 calls in all, each
   * user below its 20. So the tenant's 50 is reached exactly when u1's 20 and every call of the
   * others are admitted, and every other call of u1 is refused by u1's own limit.
   */
  private static final List<Share> THREADS = List.of(
      new Share("u1", 10), new Share("u1", 10), new Share("u1", 10), new Share("u1", 10),
      new Share("u1", 10), new Share("u1", 10), new Share("u1", 10), new Share("u1", 10),
      new Share("u2", 4), new Share("u2", 4), new Share("u2", 4), new Share("u2", 4),
      new Share("u3", 4), new Share("u3", 4), new Share("u4", 3), new Share("u4", 3));
  private static final int CALLS = 110;
  private static final Map<String, Integer> PLANNED = Map.of("u1", 20, "u2", 16, "u3", 8, "u4", 6);
  private static final List<String> USERS = List.of("u1", "u2", "u3", "u4");
  private static final String USER_REFUSAL = "Rate limit reached for gpt-4o on the user's requests per day (RPD):"
      + " Limit 20, Remaining 0. Please try again in ";
  private static final String TENANT_REFUSAL = "Rate limit reached for gpt-4o on requests per day (RPD):"
      + " Limit 50, Remaining 0. Please try again in ";

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

  /** A provider account of 1000 requests a day; each tenant and each user with the limits given. */
  private TollgateConfig config(String backend, String tenantLimits, String userLimits) {
    return GateTestSupport.config("""
        tollgate:
        %s  providers:
            openai:
              base-url: %s
              limits: { requests-per-day: 1000, algorithm: sliding-window }
          tenants:
            header: X-Tenant-Id
            limits: { %s, algorithm: sliding-window }
            user-header: X-User-Id
            user-limits: { %s, algorithm: sliding-window }
        """.formatted(LimitBackends.yaml(backend), provider.baseUrl(), tenantLimits, userLimits), Map.of());
  }

  private record Answer(int status, String message) {}

  /** One call with {@code tenant} and {@code user} (or null) bound; a refusal's message. */
  private Answer callAs(Gate gate, String tenant, String user) throws Exception {
    try (Tenants.Scope bound = Tenants.bind(tenant, user)) {
      CallResult<HttpResponse<InputStream>> result =
          gate.call(chat(provider.baseUrl(), "sk-app", CHAT), true, transport);
      if (result instanceof CallResult.Synthetic<HttpResponse<InputStream>> synthetic) {
        return new Answer(synthetic.response().status(), message(synthetic.response()));
      }
      readBody(result);
      return new Answer(status(result), "");
    }
  }

  /** One inbound request of {@code tenant} and {@code user} (or null), settled at once. */
  private static Answer admit(Gate gate, String tenant, String user) throws Exception {
    Admission admission = gate.admitInbound(InboundRequest.builder(TenantSource.header("X-Tenant-Id"))
        .tenant(Optional.of(tenant))
        .user(Optional.ofNullable(user))
        .path("/v1/chat/completions")
        .body(() -> InboundBody.whole(CHAT.getBytes(StandardCharsets.UTF_8)))
        .build());
    if (admission.refusal().isPresent()) {
      return new Answer(admission.refusal().get().status(), message(admission.refusal().get()));
    }
    admission.settle(200, null);
    return new Answer(200, "");
  }

  private static String message(SyntheticResponse response) {
    String body = response.bodyAsString();
    int start = body.indexOf("\"message\":\"") + "\"message\":\"".length();
    return body.substring(start, body.indexOf('"', start));
  }

  /** The requests {@code subject}'s limits have left, read without charging it. */
  private static long requestsLeft(Gate gate, Subject subject, LimitsConfig limits) {
    gate.awaitSettled(Duration.ofSeconds(5));
    LimitProbe probe = LimitProbe.read(gate.limiter(), subject, limits.toLimits());
    return probe.decision().remainingRequests() + probe.taken(Dimension.REQUESTS);
  }

  @FunctionalInterface
  private interface Caller {
    Answer call(String user) throws Exception;
  }

  /** What {@link #hammer} saw: admitted calls per user, and refusals by whose limit. */
  private record Tally(Map<String, Integer> admitted, int refusedForUser, int refusedForTenant,
      List<String> unexpected) {

    int admittedInAll() {
      return admitted.values().stream().mapToInt(Integer::intValue).sum();
    }
  }

  /** The {@link #THREADS}, started together. */
  private static Tally hammer(Caller caller, String userRefusal, String tenantRefusal) throws Exception {
    Map<String, AtomicInteger> admitted = new TreeMap<>();
    USERS.forEach(user -> admitted.put(user, new AtomicInteger()));
    AtomicInteger refusedForUser = new AtomicInteger();
    AtomicInteger refusedForTenant = new AtomicInteger();
    List<String> unexpected = Collections.synchronizedList(new ArrayList<>());
    CountDownLatch go = new CountDownLatch(1);
    ExecutorService threads = Executors.newFixedThreadPool(THREADS.size());
    try {
      List<Future<?>> done = new ArrayList<>();
      for (Share share : THREADS) {
        String user = share.user();
        done.add(threads.submit(() -> {
          go.await();
          for (int i = 0; i < share.calls(); i++) {
            Answer answer = caller.call(user);
            if (answer.status() == 200) {
              admitted.get(user).incrementAndGet();
            } else if (answer.status() == 429 && answer.message().startsWith(userRefusal)) {
              refusedForUser.incrementAndGet();
            } else if (answer.status() == 429 && answer.message().startsWith(tenantRefusal)) {
              refusedForTenant.incrementAndGet();
            } else {
              unexpected.add(user + ": " + answer);
            }
          }
          return null;
        }));
      }
      go.countDown();
      for (Future<?> each : done) {
        each.get(60, TimeUnit.SECONDS);
      }
    } finally {
      threads.shutdownNow();
    }
    Map<String, Integer> counts = new TreeMap<>();
    admitted.forEach((user, count) -> counts.put(user, count.get()));
    return new Tally(counts, refusedForUser.get(), refusedForTenant.get(), unexpected);
  }

  /**
   * What the storm must have done. In memory the subjects of a call are reserved in turn, the user
   * before its tenant, so a call its user refuses never touches the tenant: exactly the plan. On a
   * standalone Redis they are reserved in one pipeline: a call its user refuses holds the tenant's
   * room for the moment before it is given back, and another user's call meeting that moment is
   * refused for the tenant. There the storm may end a little short of the plan, never beyond a
   * limit ({@link #drain} then fills the rest).
   */
  private static void checkStorm(String backend, Tally storm) {
    assertThat(storm.unexpected()).isEmpty();
    assertThat(storm.admittedInAll() + storm.refusedForUser() + storm.refusedForTenant()).isEqualTo(CALLS);
    if (backend.equals(LimitBackends.MEMORY)) {
      assertThat(storm.admitted()).isEqualTo(PLANNED);
      assertThat(storm.refusedForUser()).isEqualTo(60);
      assertThat(storm.refusedForTenant()).isZero();
    } else {
      USERS.forEach(user -> assertThat(storm.admitted().get(user)).as(user).isBetween(0, PLANNED.get(user)));
      assertThat(storm.admittedInAll()).isLessThanOrEqualTo(50);
    }
  }

  /** Calls as each user in turn, one call at a time, until each is refused. */
  private static int drain(Caller caller) throws Exception {
    int admitted = 0;
    for (String user : USERS) {
      while (caller.call(user).status() == 200) {
        admitted++;
      }
    }
    return admitted;
  }

  @ParameterizedTest
  @ValueSource(strings = {LimitBackends.MEMORY, LimitBackends.REDIS})
  void usersInsideATenantAreChargedWithItAndTheAccountAllOrNoneUnder16Threads(String backend)
      throws Exception {
    TollgateConfig config = config(backend, "requests-per-day: 50", "requests-per-day: 20");
    TenantsConfig tenants = config.tenants().orElseThrow();
    LimitsConfig account = config.providers().get("openai").limits();
    try (Gate gate = Gate.create(config)) {
      Caller caller = user -> callAs(gate, "acme", user);

      Tally storm = hammer(caller, USER_REFUSAL, TENANT_REFUSAL);

      checkStorm(backend, storm);
      int admitted = storm.admittedInAll();
      // every refused call, whoever refused it, was charged to nobody
      assertThat(provider.requestCount()).isEqualTo(admitted);
      assertThat(requestsLeft(gate, Subject.of("provider", "openai"), account)).isEqualTo(1000 - admitted);
      assertThat(requestsLeft(gate, tenants.subject("tenant", "acme"), tenants.limits()))
          .isEqualTo(50 - admitted);
      for (String user : USERS) {
        assertThat(requestsLeft(gate, tenants.userSubject("user", "acme", user), tenants.userLimits()))
            .as(user).isEqualTo(20 - storm.admitted().get(user));
      }

      int inAll = admitted + drain(caller);

      assertThat(inAll).isEqualTo(50);
      assertThat(provider.requestCount()).isEqualTo(50);
      assertThat(requestsLeft(gate, Subject.of("provider", "openai"), account)).isEqualTo(950);
      assertThat(requestsLeft(gate, tenants.subject("tenant", "acme"), tenants.limits())).isZero();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {LimitBackends.MEMORY, LimitBackends.REDIS})
  void inboundRequestsOfUsersAreChargedWithTheirTenantAllOrNoneUnder16Threads(String backend)
      throws Exception {
    TollgateConfig config = config(backend, "requests-per-day: 50", "requests-per-day: 20");
    TenantsConfig tenants = config.tenants().orElseThrow();
    try (Gate gate = Gate.create(config)) {
      Caller caller = user -> admit(gate, "acme", user);

      Tally storm = hammer(caller,
          "Rate limit reached on the user's requests per day (RPD): Limit 20, Remaining 0. Please try again in ",
          "Rate limit reached on requests per day (RPD): Limit 50, Remaining 0. Please try again in ");

      checkStorm(backend, storm);
      int admitted = storm.admittedInAll();
      assertThat(requestsLeft(gate, tenants.subject("inbound", "acme"), tenants.limits()))
          .isEqualTo(50 - admitted);
      for (String user : USERS) {
        assertThat(requestsLeft(gate, tenants.userSubject("inbound-user", "acme", user), tenants.userLimits()))
            .as(user).isEqualTo(20 - storm.admitted().get(user));
      }

      assertThat(admitted + drain(caller)).isEqualTo(50);
      assertThat(requestsLeft(gate, tenants.subject("inbound", "acme"), tenants.limits())).isZero();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {LimitBackends.MEMORY, LimitBackends.REDIS})
  void aUserNeverExceedsItsTenantEvenWithLargerLimits(String backend) throws Exception {
    TollgateConfig config = config(backend, "requests-per-day: 10", "requests-per-day: 100");
    TenantsConfig tenants = config.tenants().orElseThrow();
    try (Gate gate = Gate.create(config)) {
      List<Integer> statuses = new ArrayList<>();
      for (int i = 0; i < 12; i++) {
        statuses.add(callAs(gate, "acme", "bob").status());
      }
      Answer refused = callAs(gate, "acme", "bob");

      assertThat(statuses).containsExactly(200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 429, 429);
      assertThat(refused.message()).startsWith("Rate limit reached for gpt-4o on requests per day (RPD):"
          + " Limit 10, Remaining 0. Please try again in ");
      assertThat(requestsLeft(gate, tenants.userSubject("user", "acme", "bob"), tenants.userLimits()))
          .as("the tenant's refusals charged the user nothing").isEqualTo(90);
      assertThat(provider.requestCount()).isEqualTo(10);
    }
  }

  @Test
  void aUsersRefusalNamesTheUserAndLeavesItsTenantToItsOtherUsers() throws Exception {
    TollgateConfig config = config(LimitBackends.MEMORY, "requests-per-day: 10", "requests-per-day: 2");
    TenantsConfig tenants = config.tenants().orElseThrow();
    try (Gate gate = Gate.create(config)) {
      assertThat(callAs(gate, "acme", "bob").status()).isEqualTo(200);
      assertThat(callAs(gate, "acme", "bob").status()).isEqualTo(200);

      Answer third = callAs(gate, "acme", "bob");

      assertThat(third.status()).isEqualTo(429);
      assertThat(third.message()).startsWith(
          "Rate limit reached for gpt-4o on the user's requests per day (RPD): Limit 2, Remaining 0."
              + " Please try again in ");
      assertThat(callAs(gate, "acme", "alice").status()).as("another user of acme").isEqualTo(200);
      assertThat(callAs(gate, "globex", "bob").status()).as("bob of another tenant").isEqualTo(200);
      assertThat(callAs(gate, "acme", null).status()).as("acme alone: no user to limit").isEqualTo(200);
      assertThat(requestsLeft(gate, tenants.subject("tenant", "acme"), tenants.limits())).isEqualTo(6);
      assertThat(requestsLeft(gate, tenants.userSubject("user", "acme", "bob"), tenants.userLimits())).isZero();
      assertThat(requestsLeft(gate, Subject.of("provider", "openai"),
          config.providers().get("openai").limits())).isEqualTo(995);
    }
  }

  @Test
  void spansNameTheUsersLimitAndNeverTheUsersId() throws Exception {
    TollgateConfig config = config(LimitBackends.MEMORY, "requests-per-day: 10", "requests-per-day: 1");
    try (TelemetryCapture capture = new TelemetryCapture();
        Gate gate = Gate.builder(config).openTelemetry(capture.sdk()).build()) {
      assertThat(admit(gate, "acme", "bob-the-user").status()).isEqualTo(200);
      assertThat(admit(gate, "acme", "bob-the-user").status()).isEqualTo(429);
      assertThat(callAs(gate, "acme", "bob-the-user").status()).isEqualTo(200);
      assertThat(callAs(gate, "acme", "bob-the-user").status()).isEqualTo(429);

      assertThat(capture.spans(TelemetryNames.INBOUND_SPAN))
          .extracting(span -> span.getAttributes().get(TollgateAttributes.LIMIT))
          .containsExactly(null, "inbound-user:requests-per-day");
      assertThat(capture.spans(TelemetryNames.CALL_SPAN))
          .extracting(span -> span.getAttributes().get(TollgateAttributes.LIMIT))
          .containsExactly(null, "user:requests-per-day");
      assertThat(capture.everyAttributeValue()).noneMatch(value -> value.contains("bob-the-user"));
    }
  }

  @Test
  void anInboundUserIsBoundWithItsTenantAndAnInvalidOneIsRefused() throws Exception {
    TollgateConfig config = config(LimitBackends.MEMORY, "requests-per-day: 10", "requests-per-day: 2");
    try (Gate gate = Gate.create(config)) {
      Admission named = gate.admitInbound(InboundRequest.builder(TenantSource.header("X-Tenant-Id"))
          .tenant(Optional.of("acme")).user(Optional.of("bob")).build());
      Admission alone = gate.admitInbound(InboundRequest.builder(TenantSource.header("X-Tenant-Id"))
          .tenant(Optional.of("acme")).build());
      Admission invalid = gate.admitInbound(InboundRequest.builder(TenantSource.header("X-Tenant-Id"))
          .tenant(Optional.of("acme")).user(Optional.of("bob smith")).build());

      assertThat(named.tenant()).contains("acme");
      assertThat(named.user()).contains("bob");
      assertThat(named.decision().orElseThrow().remainingRequests()).as("the tighter: bob's").isEqualTo(1);
      assertThat(alone.user()).isEmpty();
      assertThat(alone.decision().orElseThrow().remainingRequests()).isEqualTo(8);
      SyntheticResponse refusal = invalid.refusal().orElseThrow();
      assertThat(refusal.status()).isEqualTo(400);
      assertThat(refusal.headers().first("x-tollgate")).contains("invalid-user");
      assertThat(refusal.bodyAsString()).isEqualTo("{\"error\":{\"message\":\"Invalid user: the X-User-Id"
          + " header must be 1 to 128 printable ASCII characters, without spaces or control characters."
          + " (Tollgate)\",\"type\":\"invalid_request_error\",\"param\":null,\"code\":\"invalid_user\"}}");
      assertThat(invalid.tenant()).isEmpty();
    }
  }
}
