package io.tollgate.gate.internal;

import io.opentelemetry.context.Scope;
import io.tollgate.config.Mode;
import io.tollgate.config.ProviderConfig;
import io.tollgate.gate.Activity;
import io.tollgate.gate.CallResult;
import io.tollgate.gate.UsageObserver;
import io.tollgate.limiter.Charge;
import io.tollgate.limiter.Decision;
import io.tollgate.limiter.JointDecision;
import io.tollgate.limiter.LimitState;
import io.tollgate.limiter.Subject;
import io.tollgate.llm.Headers;
import io.tollgate.llm.LlmProtocol;
import io.tollgate.llm.LlmRequest;
import io.tollgate.llm.ProviderSignals;
import io.tollgate.llm.RateLimitNotice;
import io.tollgate.llm.ResponseClass;
import io.tollgate.llm.Usage;
import io.tollgate.router.FailureKind;
import io.tollgate.router.OutboundRequest;
import io.tollgate.router.ProviderBreaker;
import io.tollgate.router.QuotaSource;
import io.tollgate.router.RewriteException;
import io.tollgate.router.RewrittenRequest;
import io.tollgate.router.StreamedBody;
import io.tollgate.telemetry.Decisions;
import io.tollgate.telemetry.DeniedLimit;
import io.tollgate.telemetry.TollgateAttributes;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * One call through the gate, as a state machine both drivers share: {@link #start()} and each
 * outcome ({@link #onResponse}, {@link #onError}) answer the next {@link Step}. The rules live
 * here once: reserve on every limit, skip providers that are open, cooling down or out of room,
 * rewrite for a fallback, release on failure, settle from the body on success, and when nothing
 * is left wait (bounded) or answer in the provider's own shape.
 */
public final class Call<R> {

  private static final System.Logger LOG = System.getLogger(Call.class.getName());

  private final GateParts parts;
  private final OutboundRequest request;
  private final ProviderConfig addressed;
  private final LlmRequest llm;
  /** The body past what Tollgate holds, or null when it holds the whole body. */
  private final StreamedBody streamed;
  private final Optional<String> tenant;
  /** The user inside {@link #tenant}, charged with it when users are limited. */
  private final Optional<String> user;
  /** Its priority class (empty without {@code priority}) and the share of every limit it may use. */
  private final Optional<String> priorityClass;
  private final double share;
  /** The mode this call is decided in: under canary, its tenant's. */
  private final Mode mode;
  private final boolean replayable;
  /** False for a driver whose thread must not sleep: no limit waits, no switch-over jitter. */
  private final boolean mayPause;
  private final ResponseView<R> view;
  private final long deadlineNanos;
  private final CallTrace trace;

  private Iterator<String> candidates;
  private Attempt current;
  private int attempts;
  private R heldFailure;
  private String heldProvider;
  private JointDecision lastDenial;
  /** The micro-dollars the denied reserve asked for. */
  private long lastDenialSpend;
  private Duration earliestRetry;
  private IOException lastError;
  /** What the tenant was last charged on, for the status page; null when it is not limited. */
  private Charge tenantCharge;
  /** The limit that refused the call last, for the status page. */
  private String deniedBy;
  /** The subject whose limit refused the call last: the line it waits in. */
  private Subject deniedOn;
  /** True when that limit was the user's: the refusal says so. */
  private boolean deniedForUser;
  private boolean degraded;
  /** The line this call waits in ({@link WaitLines}), or null. */
  private String waitingIn;
  /** True when this round only found that its turn has not come: its wait is not an event. */
  private boolean checkingTurn;

  public Call(GateParts parts, OutboundRequest request, ProviderConfig addressed,
      Optional<String> tenant, Optional<String> user, boolean replayable, boolean mayPause,
      ResponseView<R> view) {
    this.parts = parts;
    this.request = request;
    this.addressed = addressed;
    this.tenant = tenant;
    this.user = user;
    this.replayable = replayable;
    this.mayPause = mayPause;
    this.view = view;
    this.streamed = request.streamedBody().orElse(null);
    LlmProtocol protocol = parts.protocol(addressed);
    // of a body streamed by the client only its start is held: the settings are read from it, the
    // prompt is estimated from the body's size as known now (declared, else what was read so far)
    this.llm = streamed == null
        ? protocol.readRequest(request.uri().getRawPath(), request.body(), parts.defaultMaxOutput())
        : protocol.readRequestPrefix(request.uri().getRawPath(), request.body(), streamedLength(),
            parts.defaultMaxOutput());
    this.deadlineNanos = System.nanoTime() + parts.maxWait().toNanos();
    this.mode = parts.modeFor(tenant);
    this.priorityClass = parts.priorityClass(
        parts.priorityHeader().flatMap(name -> request.headers().first(name)), tenant);
    this.share = parts.share(priorityClass);
    this.trace = CallTrace.start(parts.telemetry, addressed, llm.modelOrDeployment(), tenant,
        parts::tenantHash, estimate(), !mode.blocks());
  }

  /**
   * Makes the span of the attempt about to be sent current (in the app's context too) while the
   * driver sends it, so the HTTP client's own span is its child.
   */
  public Scope attemptScope() {
    return trace.attemptScope();
  }

  /** @param model the model sent (after a fallback's model-map), when the request names one */
  private record Attempt(String provider, JointDecision decision, ProviderBreaker breaker,
      long startNanos, Optional<String> model) {}

  public Step<R> start() {
    if (!mode.blocks()) {
      return shadow();
    }
    candidates = order().iterator();
    return next();
  }

  /**
   * The addressed provider first, then its fallbacks healthiest first, then theirs: fallbacks are
   * followed from fallback to fallback (the configuration rejects a chain that loops).
   */
  private List<String> order() {
    List<String> order = new ArrayList<>();
    order.add(addressed.name());
    if (!replayable) {
      return order;
    }
    for (int i = 0; i < order.size(); i++) {
      List<String> next = new ArrayList<>(parts.provider(order.get(i)).fallbacks());
      next.removeAll(order);
      order.addAll(parts.health.rank(next));
    }
    return order;
  }

  /** Decides and reports, but always sends the app's own request and never blocks it. */
  private Step<R> shadow() {
    JointDecision decision = reserve(addressed.name(),
        charges(addressed.name(), llm.modelOrDeployment()),
        parts.pricing.estimate(llm.modelOrDeployment(), llm.estimate()));
    current = new Attempt(addressed.name(), decision, null, System.nanoTime(),
        llm.modelOrDeployment());
    attempts = 1;
    trace.attemptStarted(addressed.name(), 1, null, llm.modelOrDeployment(), null);
    return new Step.Send<>(addressed.name(), request, Duration.ZERO);
  }

  /** Picks the next provider that can take the call, or finishes. */
  public Step<R> next() {
    while (candidates.hasNext()) {
      String name = candidates.next();
      ProviderConfig target = parts.provider(name);
      boolean fallback = !name.equals(addressed.name());
      Optional<Duration> cooling = parts.cooldowns.remaining(name);
      if (cooling.isPresent()) {
        hint(cooling.get());
        trace.skipped(name, "cooling_down", null);
        continue;
      }
      ProviderBreaker breaker = parts.breakers.breaker(name);
      boolean permitted;
      try (var scope = trace.makeCurrent()) {
        permitted = breaker.tryAcquirePermission();
      }
      if (!permitted) {
        breaker.openUntil().ifPresent(until ->
            hint(Duration.between(parts.clock.instant(), until)));
        trace.skipped(name, "breaker_open", breaker);
        continue;
      }
      // rewritten first: the model a fallback is sent (after its model-map) is the one charged
      OutboundRequest plan;
      Optional<String> model = llm.modelOrDeployment();
      try {
        if (fallback) {
          RewrittenRequest rewritten = parts.rewriter.rewrite(request, addressed, target);
          plan = rewritten.request();
          model = rewritten.model().or(() -> llm.modelOrDeployment());
        } else {
          plan = request;
        }
      } catch (RewriteException e) {
        breaker.releasePermission();
        trace.skipped(name, "rewrite_failed", null);
        continue;
      }
      long spend = parts.pricing.estimate(model, llm.estimate());
      List<Charge> charges = charges(name, model);
      if (!fallback && mustWaitItsTurn(charges)) {
        breaker.releasePermission();
        hint(WaitLines.TURN_CHECK);
        checkingTurn = true;
        continue;
      }
      JointDecision decision = reserve(name, charges, spend);
      accountRatio(name, decision).ifPresent(ratio ->
          parts.health.health(name).recordQuota(QuotaSource.LIMITER, ratio));
      if (!fallback) {
        queue(decision);
      }
      if (!decision.allowed()) {
        breaker.releasePermission();
        lastDenial = decision;
        lastDenialSpend = spend;
        if (!decision.retryAfter().isZero()) {
          hint(decision.retryAfter());
        }
        trace.skipped(name, "limited", null);
        continue;
      }
      // A retry after a failure this call saw is jittered, so a fleet whose calls failed together
      // does not hit the fallback together; a provider skipped as open costs no delay, and a
      // thread that must not sleep does not jitter (its client's own concurrency cap spreads it).
      Duration delay = attempts > 0 && mayPause ? parts.breakers.switchOverDelay() : Duration.ZERO;
      current = new Attempt(name, decision, breaker, System.nanoTime(), model);
      attempts++;
      trace.attemptStarted(name, attempts, fallback ? addressed.name() : null, model, breaker);
      return new Step.Send<>(name, plan, delay);
    }
    return exhausted();
  }

  /**
   * Under {@code on-limit: wait}, whether this call must let the calls before it in a line of its
   * charges go first: it waits in one, behind another, or a line it would join holds calls.
   */
  private boolean mustWaitItsTurn(List<Charge> charges) {
    if (!waitsInLine()) {
      return false;
    }
    if (deadlineNanos - System.nanoTime() <= WaitLines.TURN_CHECK.toNanos()) {
      // its wait runs out: one last try, answered as it would be without a line
      return false;
    }
    if (waitingIn != null) {
      return !parts.waitLines.isFirst(waitingIn, this);
    }
    for (Charge charge : charges) {
      String line = WaitLines.line(charge.subject(), priorityClass.orElse(""));
      if (parts.waitLines.anyIn(line)) {
        waitingIn = line;
        parts.waitLines.join(line, this);
        return true;
      }
    }
    return false;
  }

  /**
   * After a reserve on the addressed provider: admitted, the call leaves its line; refused, it
   * joins the line of the subject that refused it, when it will wait.
   */
  private void queue(JointDecision decision) {
    if (decision.allowed()) {
      leaveLine();
    } else if (waitingIn == null && waitsInLine() && deniedOn != null) {
      waitingIn = WaitLines.line(deniedOn, priorityClass.orElse(""));
      parts.waitLines.join(waitingIn, this);
    }
  }

  /** Who pays for this call sent to {@code provider} as {@code model}, in the order reserved. */
  private List<Charge> charges(String provider, Optional<String> model) {
    return parts.charges(provider, model, tenant, user, share);
  }

  private boolean waitsInLine() {
    return mayPause && parts.waitsWhenLimited() && (replayable || attempts == 0);
  }

  private void leaveLine() {
    if (waitingIn != null) {
      parts.waitLines.leave(waitingIn, this);
      waitingIn = null;
    }
  }

  /** Every candidate was tried or skipped. */
  private Step<R> exhausted() {
    Duration left = Duration.ofNanos(deadlineNanos - System.nanoTime());
    // a body that cannot be replayed, once sent, is never sent again: not even after a wait
    if (mayPause && parts.waitsWhenLimited() && earliestRetry != null && lastError == null
        && (replayable || attempts == 0) && earliestRetry.compareTo(left) <= 0) {
      if (heldFailure != null) {
        view.discard(heldFailure);
        heldFailure = null;
      }
      Duration wait = earliestRetry;
      earliestRetry = null;
      lastDenial = null;
      candidates = order().iterator();
      if (checkingTurn) {
        trace.waitingItsTurn(wait);
      } else {
        trace.waiting(wait);
      }
      checkingTurn = false;
      return new Step.Wait<>(wait);
    }
    if (heldFailure != null) {
      finish(Decisions.UPSTREAM_ERROR, heldProvider, false);
      return done(new CallResult.Forwarded<>(heldProvider, heldFailure, UsageObserver.none(), attempts));
    }
    if (lastError != null) {
      fail(lastError);
      return new Step.Fail<>(lastError);
    }
    LlmProtocol protocol = parts.protocol(addressed);
    if (lastDenial != null) {
      Decision denial = lastDenial.denial().orElseThrow();
      finish(Decisions.DENIED, addressed.name(), false);
      RateLimitNotice notice = RateLimitNotice.from(denial, estimate(), lastDenialSpend,
          llm.modelOrDeployment().orElse(null));
      return done(new CallResult.Synthetic<>(addressed.name(), protocol.syntheticRateLimit(
          deniedForUser ? notice.forHolder("user") : notice), attempts));
    }
    finish(Decisions.UNAVAILABLE, addressed.name(), false);
    return done(new CallResult.Synthetic<>(addressed.name(), protocol.syntheticUnavailable(
        earliestRetry, "No provider can take this request now; retry later."), attempts));
  }

  /** The status and headers of the attempt's response have arrived. */
  public Step<R> onResponse(R response) {
    Attempt attempt = current;
    current = null;
    Duration latency = Duration.ofNanos(System.nanoTime() - attempt.startNanos);
    ProviderConfig target = parts.provider(attempt.provider);
    Headers headers = view.headers(response);
    int status = view.status(response);
    trace.attemptAnswered(status);
    ProviderSignals signals = parts.protocol(target).signals(status, headers);
    parts.activity.answered(attempt.provider, status, signals.quotas());
    signals.tightestRemainingRatio().ifPresent(ratio ->
        parts.health.health(attempt.provider).recordQuota(QuotaSource.PROVIDER, ratio));
    if (target.learnLimits() && parts.chargesAccount(attempt.provider)
        && !attempt.decision.decisions().isEmpty()) {
      LearnedLimits.of(attempt.decision.decisions().get(0), signals).ifPresent(this::lower);
    }
    if (attempt.breaker == null) { // shadow: observe only
      return done(forwarded(attempt, response, headers, signals.responseClass()));
    }
    ResponseClass kind = signals.responseClass();
    try (var scope = trace.makeCurrent()) {
      if (kind.providerFailure()) {
        attempt.breaker.onFailure(failureKind(kind));
        parts.health.health(attempt.provider).recordFailure();
      } else {
        attempt.breaker.onSuccess(latency);
        parts.health.health(attempt.provider).recordSuccess(latency);
      }
    }
    if (kind == ResponseClass.SUCCESS || !kind.mayFallBack()) {
      if (heldFailure != null) {
        view.discard(heldFailure);
        heldFailure = null;
      }
      return done(forwarded(attempt, response, headers, kind));
    }
    parts.limiter.releaseAll(attempt.decision);
    signals.suggestedWait().ifPresent(wait -> {
      parts.cooldowns.coolDown(attempt.provider, wait);
      hint(wait);
    });
    if (heldFailure != null) {
      view.discard(heldFailure);
      heldFailure = null;
    }
    if (candidates.hasNext() && !view.hold(response)) {
      // too large to keep while another provider is tried: this failure is the answer
      finish(Decisions.UPSTREAM_ERROR, attempt.provider, false);
      return done(new CallResult.Forwarded<>(attempt.provider, response, UsageObserver.none(), attempts));
    }
    heldFailure = response;
    heldProvider = attempt.provider;
    return next();
  }

  /** The attempt failed before a response: connection refused, reset, timed out. */
  public Step<R> onError(IOException error) {
    Attempt attempt = current;
    current = null;
    trace.attemptFailed(error);
    parts.activity.unreachable(attempt.provider);
    parts.limiter.releaseAll(attempt.decision);
    if (attempt.breaker == null) {
      fail(error);
      return new Step.Fail<>(error);
    }
    try (var scope = trace.makeCurrent()) {
      attempt.breaker.onFailure(isTimeout(error) ? FailureKind.TIMEOUT : FailureKind.CONNECTION);
    }
    parts.health.health(attempt.provider).recordFailure();
    lastError = error;
    return next();
  }

  /** Something other than I/O went wrong in the front end: give everything back. */
  public void abandon() {
    leaveLine();
    trace.abandoned();
    if (current != null) {
      parts.limiter.releaseAll(current.decision);
      if (current.breaker != null) {
        current.breaker.releasePermission();
      }
      current = null;
    }
    if (heldFailure != null) {
      view.discard(heldFailure);
      heldFailure = null;
    }
  }

  private CallResult<R> forwarded(Attempt attempt, R response, Headers headers, ResponseClass kind) {
    JointDecision decision = attempt.decision;
    String outcome = attempt.breaker == null
        ? (decision.allowed() ? Decisions.SHADOW_ALLOWED : Decisions.SHADOW_DENIED)
        : (attempt.provider.equals(addressed.name()) ? Decisions.ALLOWED : Decisions.FALLBACK);
    if (kind != ResponseClass.SUCCESS) {
      // the provider turned the request down: the request counts, its tokens were not used
      parts.limiter.settleAllLater(decision, 0, 0);
      finish(outcome, attempt.provider, false);
      return new CallResult.Forwarded<>(attempt.provider, response, UsageObserver.none(), attempts);
    }
    if (decision.reservations().isEmpty() || !decision.allowed()) {
      finish(outcome, attempt.provider, false);
      return new CallResult.Forwarded<>(attempt.provider, response, UsageObserver.none(), attempts);
    }
    String contentType = headers.first("content-type").orElse(null);
    UsageObserver usage = UsageObserver.of(
        parts.protocol(parts.provider(attempt.provider)).newUsageTap(contentType, llmAsSent()),
        used -> settle(attempt, used));
    finish(outcome, attempt.provider, true);
    return new CallResult.Forwarded<>(attempt.provider, response, usage, attempts);
  }

  private void settle(Attempt attempt, Usage usage) {
    long tokens = usage.known() ? usage.totalTokens() : llmAsSent().estimate().totalTokens();
    Optional<Pricing.Cost> cost = usage.known()
        ? parts.pricing.cost(usage, attempt.model) : Optional.empty();
    // a Redis limiter applies it on its settle thread; the span ends now, when the app has its body
    if (!usage.known()) {
      parts.limiter.settleAllLater(attempt.decision, tokens); // the spend stays as estimated
    } else {
      // a model with no price is charged nothing
      parts.limiter.settleAllLater(attempt.decision, tokens, cost.map(Pricing.Cost::microUsd).orElse(0L));
    }
    trace.settled(attempt.provider, usage, tokens, cost);
  }

  /**
   * Reserves one request, the estimate and {@code spend} (its price) on {@code charges}, what a
   * call to {@code provider} is charged to.
   */
  private JointDecision reserve(String provider, List<Charge> charges, long spend) {
    long start = System.nanoTime();
    JointDecision decision = parts.limiter.reserveAll(charges, 1, estimate(), spend);
    trace.limiterDecided(provider, decision, charges, estimate(), spend, System.nanoTime() - start);
    degraded |= decision.degraded();
    Charge last = charges.isEmpty() ? null : charges.get(charges.size() - 1);
    if (last != null && last.subject().scope().equals(GateParts.TENANT_SCOPE)) {
      tenantCharge = last;
    }
    decision.denial().ifPresent(denial -> {
      int index = decision.decisions().indexOf(denial);
      deniedOn = charges.get(index).subject();
      String scope = deniedOn.scope();
      deniedBy = DeniedLimit.name(scope, denial, estimate(), spend);
      deniedForUser = scope.equals(GateParts.USER_SCOPE);
    });
    return decision;
  }

  /**
   * Lowers the account's room to what the provider reports: at once on a thread that may wait, on
   * another thread for a driver whose thread must not block (an event loop).
   */
  private void lower(LearnedLimits.Lowering lowering) {
    Runnable apply = () -> {
      try {
        lowering.apply(parts.limiter);
      } catch (RuntimeException e) {
        // best effort: the call's answer is the provider's, whatever the limiter does with it
        LOG.log(System.Logger.Level.DEBUG, "lowering learned limits failed", e);
      }
    };
    if (mayPause) {
      apply.run();
    } else {
      CompletableFuture.runAsync(apply);
    }
  }

  private void finish(String decision, String provider, boolean settlesLater) {
    trace.finished(decision, provider, settlesLater);
    report(decision, provider);
  }

  private void fail(IOException error) {
    leaveLine();
    trace.failed(error);
    report(Decisions.ERROR, addressed.name());
  }

  /** The decision, for the status page ({@link io.tollgate.gate.Activity}). */
  private void report(String decision, String provider) {
    boolean refused = decision.equals(Decisions.DENIED) || decision.equals(Decisions.SHADOW_DENIED);
    parts.activity.decided(new Activity.DecisionEvent(parts.clock.instant(), decision, "outbound",
        provider, provider.equals(addressed.name()) ? null : addressed.name(),
        tenant.map(parts::tenantName).orElse(null), refused ? deniedBy : null, degraded,
        llm.modelOrDeployment().map(TollgateAttributes::fromOutside).orElse(null)),
        tenant.map(parts::tenantHash).orElse(null), tenantCharge);
  }

  private Step<R> done(CallResult<R> result) {
    leaveLine();
    return new Step.Done<>(result);
  }

  private long estimate() {
    return llm.estimate().totalTokens();
  }

  /**
   * The request as it was sent: a streamed body's prompt estimated again from its size, now that
   * the client has sent it all (a body of undeclared length was estimated from the bytes read
   * before it was sent).
   */
  private LlmRequest llmAsSent() {
    return streamed == null ? llm : llm.withPromptBySize(streamedLength());
  }

  /** A streamed body's length as known now; never less than the bytes held of it. */
  private long streamedLength() {
    return Math.max(streamed.knownLength(), request.bodyLength());
  }

  private void hint(Duration wait) {
    if (!wait.isNegative() && (earliestRetry == null || wait.compareTo(earliestRetry) < 0)) {
      earliestRetry = wait;
    }
  }

  /**
   * What the provider's account has left, the tightest of its limits: its health's quota. A
   * tenant's limits are not the provider's; a tenant that spent its own would otherwise score the
   * provider down for every tenant, and a fallback would be dropped for all of them.
   */
  private Optional<Double> accountRatio(String provider, JointDecision decision) {
    if (!parts.chargesAccount(provider) || decision.decisions().isEmpty()) {
      return Optional.empty();
    }
    double tightest = Double.NaN;
    for (LimitState state : decision.decisions().get(0).limits()) {
      if (state.remaining() >= 0) {
        double ratio = (double) state.remaining() / state.limit().capacity();
        tightest = Double.isNaN(tightest) ? ratio : Math.min(tightest, ratio);
      }
    }
    return Double.isNaN(tightest) ? Optional.empty() : Optional.of(tightest);
  }

  private static FailureKind failureKind(ResponseClass kind) {
    return kind == ResponseClass.RATE_LIMITED || kind == ResponseClass.QUOTA_EXHAUSTED
        ? FailureKind.RATE_LIMITED : FailureKind.SERVER_ERROR;
  }

  private static boolean isTimeout(IOException error) {
    return error instanceof HttpTimeoutException || error instanceof SocketTimeoutException
        || (error instanceof InterruptedIOException && !(error.getCause() instanceof InterruptedException));
  }
}
