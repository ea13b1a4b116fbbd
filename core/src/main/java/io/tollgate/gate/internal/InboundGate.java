package io.tollgate.gate.internal;

import io.tollgate.config.LimitsConfig;
import io.tollgate.config.Mode;
import io.tollgate.config.TenantIdRule;
import io.tollgate.config.TenantsConfig;
import io.tollgate.gate.Activity;
import io.tollgate.gate.Admission;
import io.tollgate.gate.InboundBody;
import io.tollgate.gate.InboundRequest;
import io.tollgate.gate.TenantSource;
import io.tollgate.limiter.BoundedSubjects;
import io.tollgate.limiter.Charge;
import io.tollgate.limiter.Decision;
import io.tollgate.limiter.Dimension;
import io.tollgate.limiter.JointDecision;
import io.tollgate.limiter.LimitState;
import io.tollgate.limiter.Limits;
import io.tollgate.limiter.Outcome;
import io.tollgate.limiter.RateLimiter;
import io.tollgate.limiter.Subject;
import io.tollgate.llm.Headers;
import io.tollgate.llm.LlmEndpoint;
import io.tollgate.llm.LlmProtocol;
import io.tollgate.llm.LlmRequest;
import io.tollgate.llm.RateLimitNotice;
import io.tollgate.llm.SyntheticResponse;
import io.tollgate.telemetry.Decisions;
import io.tollgate.telemetry.DeniedLimit;
import io.tollgate.telemetry.TollgateAttributes;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;

/**
 * The inbound side of a gate: a request an app serves is checked for its tenant (named, valid,
 * known), charged one request and its estimated tokens on that tenant's limits ({@code
 * tollgate.tenants}, scope {@link InboundRequest#SCOPE}) and, when it names a user inside the
 * tenant ({@code user-header}), on that user's limits too in the same decision (scope {@link
 * InboundRequest#USER_SCOPE}), refused with the API's own 429 when they have no room, and settled
 * from the response ({@link InboundAdmission}). Shadow mode decides and reports the same, and
 * refuses nothing. A failure of the shared limiter is decided by its own policy ({@code
 * redis.on-failure}); an exception while admitting reaches the front end.
 */
public final class InboundGate {

  private static final System.Logger LOG = System.getLogger(InboundGate.class.getName());
  /** The path a body is read as when the app's own path names no LLM endpoint. */
  private static final String CHAT_PATH = "/v1/chat/completions";
  private static final long SHADOW_LOG_INTERVAL = TimeUnit.SECONDS.toNanos(10);

  private final GateParts parts;
  private final TenantsConfig tenants;
  /** The gate's limiter, the inbound tenants bounded ({@code tenants.max-tracked}). */
  private final BoundedSubjects limiter;
  /** {@link #limiter}, the inbound users bounded too. */
  private final RateLimiter usersBounded;
  /** Null when tenants are not limited by default. */
  private final Limits baseLimits;
  /** Null when users are not limited. */
  private final Limits userLimits;
  /** What a request with an invalid user id is answered; null when users are not limited. */
  private final SyntheticResponse invalidUser;
  /** Tenants with an override; an empty value means no limit at all. */
  private final Map<String, Optional<Limits>> overrides = new HashMap<>();
  private final Map<TenantSource, SyntheticResponse> missingAnswers = new ConcurrentHashMap<>();
  private final Map<TenantSource, SyntheticResponse> invalidAnswers = new ConcurrentHashMap<>();
  private final long unreadEstimate;
  private final AtomicLong lastShadowLog = new AtomicLong(System.nanoTime() - SHADOW_LOG_INTERVAL);
  private final AtomicLong unloggedShadowRefusals = new AtomicLong();

  public InboundGate(GateParts parts, TenantsConfig tenants) {
    this.parts = parts;
    this.tenants = tenants;
    this.limiter = BoundedSubjects.builder(parts.limiter(), InboundRequest.SCOPE)
        .maxTracked(tenants.maxTracked())
        .pinned(tenants.knownTenants().stream()
            .map(id -> tenants.subject(InboundRequest.SCOPE, id)).collect(Collectors.toSet()))
        .build();
    // user ids come from clients as tenant ids do: a flood of them is bounded alike
    this.usersBounded = tenants.userHeader().isEmpty() ? limiter
        : BoundedSubjects.builder(limiter, InboundRequest.USER_SCOPE)
            .maxTracked(tenants.maxTracked()).build();
    this.baseLimits = limitsOf(tenants.limits());
    this.userLimits = limitsOf(tenants.userLimits());
    this.invalidUser = tenants.userHeader().map(InboundAnswers::invalidUser).orElse(null);
    tenants.knownTenants().forEach(id -> overrides.put(id, Optional.ofNullable(limitsOf(tenants.limitsFor(id)))));
    this.unreadEstimate = parts.defaultMaxOutput() + InboundRequest.UNREAD_PROMPT_TOKENS;
  }

  /** What mode off answers every request: served as it came, charged to nobody, unbound. */
  public static Admission passThrough() {
    return InboundAdmission.unbound();
  }

  /** See {@link io.tollgate.gate.Gate#admitInbound}. */
  public Admission admit(InboundRequest request) throws IOException {
    if (parts.mode() == Mode.OFF) {
      return passThrough();
    }
    if (request.tenant().isEmpty()) {
      return refuseTenant(parts.modeFor(Optional.empty()), Decisions.MISSING_TENANT,
          missingAnswers.computeIfAbsent(request.tenantSource(), InboundAnswers::missingTenant));
    }
    if (!TenantIdRule.isValid(request.tenant().get())) {
      // the id is neither answered, logged nor traced: it may be a forged log line or 10 KB
      return refuseTenant(parts.modeFor(Optional.empty()), Decisions.INVALID_TENANT,
          invalidAnswers.computeIfAbsent(request.tenantSource(), InboundAnswers::invalidTenant));
    }
    String tenant = tenants.normalize(request.tenant().get());
    Mode mode = parts.modeFor(Optional.of(tenant));
    if (tenants.knownOnly() && !parts.isKnownTenant(tenant)) {
      return refuseTenant(mode, Decisions.UNKNOWN_TENANT, InboundAnswers.unknownTenant());
    }
    Optional<String> named = userLimits == null ? Optional.empty() : request.user();
    if (named.isPresent() && !TenantIdRule.isValid(named.get())) {
      return refuseTenant(mode, Decisions.INVALID_USER, invalidUser);
    }
    String user = named.map(tenants::normalize).orElse(null);
    double share = parts.share(parts.priorityClass(request.priority(), Optional.of(tenant)));
    List<Charge> charges = chargesOf(tenant, user, share);
    InboundTrace trace = InboundTrace.start(parts.telemetry, mode, tenants, tenant);
    if (charges.isEmpty()) { // not limited: only bound, for its outbound calls
      trace.unlimited();
      report(!mode.blocks() ? Decisions.SHADOW_ALLOWED : Decisions.ALLOWED, tenant, null, null,
          false, null);
      return InboundAdmission.served(tenant, user, null, trace);
    }
    return limited(request, mode, tenant, user, charges, trace);
  }

  /**
   * What a request of {@code tenant} (and {@code user}, or null) is charged on: the user before its
   * tenant, so that where subjects are reserved in turn a request its user refuses never holds the
   * tenant's room for a moment (see GateParts#charges); each as a class allowed {@code share} of it
   * sees it.
   */
  private List<Charge> chargesOf(String tenant, String user, double share) {
    List<Charge> charges = new ArrayList<>(2);
    if (user != null) {
      charges.add(new Charge(tenants.userSubject(InboundRequest.USER_SCOPE, tenant, user),
          parts.sharing(userLimits, share)));
    }
    Limits limits = limitsFor(tenant);
    if (limits != null) {
      charges.add(new Charge(tenants.subject(InboundRequest.SCOPE, tenant),
          parts.sharing(limits, share)));
    }
    return charges;
  }

  /** Inbound tenant ids charged on their own now ({@code tenants.max-tracked}). */
  public int tracked() {
    return limiter.tracked();
  }

  /** A request charged to nobody: refused with {@code answer}, or in shadow mode passed on unbound. */
  private Admission refuseTenant(Mode mode, String decision, SyntheticResponse answer) {
    InboundTrace.refusedTenant(parts.telemetry, mode, decision);
    report(!mode.blocks() ? Decisions.SHADOW_DENIED : decision, null, null, null, false, null);
    return !mode.blocks() ? InboundAdmission.unbound()
        : InboundAdmission.refused(answer, null, null, null);
  }

  private Admission limited(InboundRequest request, Mode mode, String tenant, String user,
      List<Charge> charges, InboundTrace trace) throws IOException {
    LlmProtocol protocol = parts.protocol(request.api());
    boolean countsTokens = counts(charges, Dimension.TOKENS);
    boolean countsSpend = counts(charges, Dimension.SPEND);
    InboundBody body = countsTokens || countsSpend ? request.body().read() : InboundBody.unread();
    LlmRequest llmRequest = countsTokens || countsSpend ? read(protocol, request.path(), body) : null;
    long tokens = !countsTokens ? 0
        : llmRequest != null ? llmRequest.estimate().totalTokens() : unreadEstimate;
    long spend = llmRequest == null ? 0
        : parts.pricing.estimate(llmRequest.modelOrDeployment(), llmRequest.estimate());

    trace.estimated(llmRequest, tokens);
    long start = System.nanoTime();
    JointDecision joint = reserve(charges, tokens, spend);
    Decision decision = oneOf(joint);
    Charge refusedOn = joint.allowed() ? null : charges.get(joint.decisions().size() - 1);
    String scope = refusedOn == null ? InboundRequest.SCOPE : refusedOn.subject().scope();
    trace.decided(decision, scope, tokens, System.nanoTime() - start);
    Charge last = charges.get(charges.size() - 1);
    Charge tenantCharge = last.subject().scope().equals(InboundRequest.SCOPE) ? last : null;
    report(decisionName(mode, decision.allowed()), tenant, tenantCharge,
        refusedOn == null ? null : DeniedLimit.name(scope, decision, tokens, spend),
        decision.degraded(), llmRequest == null ? null
            : llmRequest.modelOrDeployment().map(TollgateAttributes::fromOutside).orElse(null));
    if (!decision.allowed()) {
      boolean forUser = scope.equals(InboundRequest.USER_SCOPE);
      if (mode == Mode.ENFORCE) {
        SyntheticResponse refusal = InboundAnswers.refusal(protocol, decision, tokens, spend, forUser);
        trace.ended(refusal.status()); // before the client can see the answer
        return InboundAdmission.refused(refusal, tenant, user, decision);
      }
      reportShadowRefusal(refusedOn.subject(), decision, tokens);
      // advisory: the client is told what enforcing would have answered, and served
      return InboundAdmission.served(tenant, user, decision, mode == Mode.ADVISORY
          ? InboundAnswers.advisoryHeaders(protocol, decision, tokens) : List.of(), trace);
    }
    LongSupplier readSoFar = llmRequest != null && !body.lengthDeclared() && !body.isWhole()
        ? body::knownLength : null;
    List<Headers.Field> headers = mode == Mode.ENFORCE || mode == Mode.ADVISORY
        ? InboundAnswers.limitHeaders(protocol, decision, tokens)
        : List.of(); // shadow: the client sees what it would see without Tollgate
    return InboundAdmission.admitted(tenant, user, decision, headers, trace,
        new InboundAdmission.Settling(usersBounded, joint.reservations(), protocol,
            llmRequest, countsTokens || countsSpend, request.bodiless(), readSoFar, parts.pricing));
  }

  /**
   * One request, {@code tokens} and {@code spend} on every charge, all or none. A tenant alone is
   * one reserve, as it was before users: a limiter that decorates {@code reserve} still sees it.
   */
  private JointDecision reserve(List<Charge> charges, long tokens, long spend) {
    if (charges.size() == 1) {
      Charge only = charges.get(0);
      Decision decision = usersBounded.reserve(only.subject(), only.limits(), 1, tokens, spend);
      return new JointDecision(List.of(decision));
    }
    return usersBounded.reserveAll(charges, 1, tokens, spend);
  }

  private static boolean counts(List<Charge> charges, Dimension dimension) {
    for (Charge charge : charges) {
      if (charge.limits().capacity(dimension) >= 0) {
        return true;
      }
    }
    return false;
  }

  /**
   * The one decision the front end sees: the refusing subject's, else that of the only subject,
   * else one with every subject's limits, so that the headers show the tighter of user and tenant.
   */
  private static Decision oneOf(JointDecision joint) {
    List<Decision> decisions = joint.decisions();
    Optional<Decision> denial = joint.denial();
    if (denial.isPresent() || decisions.size() == 1) {
      return denial.orElse(decisions.get(0));
    }
    List<LimitState> states = new ArrayList<>();
    decisions.forEach(decision -> states.addAll(decision.limits()));
    Decision tenant = decisions.get(decisions.size() - 1);
    return new Decision(Outcome.ALLOWED, states, Duration.ZERO, joint.degraded(), tenant.reservation());
  }

  private static String decisionName(Mode mode, boolean allowed) {
    if (!mode.blocks()) {
      return allowed ? Decisions.SHADOW_ALLOWED : Decisions.SHADOW_DENIED;
    }
    return allowed ? Decisions.ALLOWED : Decisions.DENIED;
  }

  /** The decision, for the status page ({@link Activity}); {@code tenant} is normalized, or null. */
  private void report(String decision, String tenant, Charge charge, String limit, boolean degraded,
      String model) {
    parts.activity.decided(new Activity.DecisionEvent(parts.clock.instant(), decision, "inbound",
        null, null, tenant == null ? null : parts.tenantName(tenant), limit, degraded, model),
        tenant == null ? null : parts.tenantHash(tenant), charge);
  }

  /**
   * What the held body asks for; null when the front end did not read one. A body held only in
   * part gives its model and output cap as far as the held bytes have them, and its prompt by its
   * size ({@link LlmProtocol#readRequestPrefix}).
   */
  private LlmRequest read(LlmProtocol protocol, String path, InboundBody body) {
    if (!body.isRead()) {
      return null;
    }
    LlmRequest read = read(protocol, path, body, parts.defaultMaxOutput());
    if (read.endpoint() == LlmEndpoint.OTHER) {
      // The app's own path (/api/ask): the front end serves LLM-backed URLs, so read it as chat.
      read = read(protocol, CHAT_PATH, body, parts.defaultMaxOutput());
    }
    return read;
  }

  private static LlmRequest read(LlmProtocol protocol, String path, InboundBody body, long defaultMaxOutput) {
    return body.isWhole()
        ? protocol.readRequest(path, body.held(), defaultMaxOutput)
        : protocol.readRequestPrefix(path, body.held(), body.knownLength(), defaultMaxOutput);
  }

  /** The limits of {@code tenant} (normalized), or null when it has none. */
  private Limits limitsFor(String tenant) {
    if (parts.overrides.current().namesTenants()) {
      return limitsOf(parts.tenantLimits(tenant));
    }
    Optional<Limits> override = overrides.get(tenant);
    return override != null ? override.orElse(null) : baseLimits;
  }

  private static Limits limitsOf(LimitsConfig config) {
    return config.isEmpty() ? null : config.toLimits();
  }

  /** Shadow mode reports what enforcing would have refused: logged, at most once per 10 s. */
  private void reportShadowRefusal(Subject subject, Decision decision, long tokens) {
    long now = System.nanoTime();
    long last = lastShadowLog.get();
    if (now - last < SHADOW_LOG_INTERVAL || !lastShadowLog.compareAndSet(last, now)) {
      unloggedShadowRefusals.incrementAndGet();
      return;
    }
    long more = unloggedShadowRefusals.getAndSet(0);
    RateLimitNotice notice = InboundAnswers.notice(decision, tokens);
    LOG.log(Level.INFO, "shadow or advisory mode: a request of " + subject + " would have been refused on "
        + notice.limitedBy().label() + (notice.neverFits() ? " (it can never fit)" : "")
        + (more > 0 ? " (" + more + " more refusals since the last report)" : ""));
  }
}
