package io.tollgate.gate.internal;

import io.opentelemetry.context.Scope;
import io.tollgate.gate.Admission;
import io.tollgate.limiter.Decision;
import io.tollgate.limiter.RateLimiter;
import io.tollgate.limiter.Reservation;
import io.tollgate.limiter.Settlement;
import io.tollgate.llm.Headers;
import io.tollgate.llm.LlmProtocol;
import io.tollgate.llm.LlmRequest;
import io.tollgate.llm.SyntheticResponse;
import io.tollgate.llm.Usage;
import io.tollgate.llm.UsageTap;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * One inbound request, from the gate's answer to its settle. An admitted request with a
 * reservation is shown the response body as the app writes it, and settled once: with the usage
 * the response reports (or the protocol's estimate of an LLM response that reports none); else
 * nothing for a failed request (an exception, a timeout, a status of 400 or more: the request stays
 * counted, its tokens are refunded), nor for a request without a body (a page, a GET of the app's
 * API: it asked nothing of an LLM itself, and the calls it made are charged to the tenant's
 * outbound bucket); else the estimate.
 */
final class InboundAdmission implements Admission {

  private static final System.Logger LOG = System.getLogger(Admission.class.getName());

  private final SyntheticResponse refusal;
  private final String tenant;
  private final String user;
  private final Decision decision;
  private final List<Headers.Field> limitHeaders;
  private final InboundTrace trace;
  /** Null unless an admitted request awaits its settle. */
  private final Settling settling;
  private final AtomicBoolean ended = new AtomicBoolean();
  /** Made at the first byte, when the response's content type is known; guarded by this. */
  private UsageTap tap;

  /**
   * What an admitted request's settle needs.
   *
   * @param reservations the tenant's, and its user's when one is charged: all of one cost
   */
  record Settling(RateLimiter limiter, List<Reservation> reservations, LlmProtocol protocol,
      LlmRequest request, boolean observe, boolean bodiless, LongSupplier readSoFar,
      Pricing pricing) {

    /** What every reservation took. */
    Reservation reserved() {
      return reservations.get(0);
    }
  }

  private InboundAdmission(SyntheticResponse refusal, String tenant, String user, Decision decision,
      List<Headers.Field> limitHeaders, InboundTrace trace, Settling settling) {
    this.refusal = refusal;
    this.tenant = tenant;
    this.user = user;
    this.decision = decision;
    this.limitHeaders = limitHeaders;
    this.trace = trace;
    this.settling = settling;
  }

  /** Refused with {@code answer}, whose span has ended already. */
  static Admission refused(SyntheticResponse answer, String tenant, String user, Decision decision) {
    return new InboundAdmission(answer, tenant, user, decision, List.of(), InboundTrace.NONE, null);
  }

  /** Passed as it came, charged to nobody and unbound (shadow mode, a tenant it would refuse). */
  static Admission unbound() {
    return new InboundAdmission(null, null, null, null, List.of(), InboundTrace.NONE, null);
  }

  /**
   * Served for {@code tenant} (and {@code user}, or null) with nothing to settle: unlimited, or
   * shadow-denied.
   */
  static Admission served(String tenant, String user, Decision decision, InboundTrace trace) {
    return new InboundAdmission(null, tenant, user, decision, List.of(), trace, null);
  }

  /** As {@link #served(String, String, Decision, InboundTrace)}, with headers for the client (advisory). */
  static Admission served(String tenant, String user, Decision decision,
      List<Headers.Field> headers, InboundTrace trace) {
    return new InboundAdmission(null, tenant, user, decision, headers, trace, null);
  }

  /** Admitted with reservations to settle. */
  static Admission admitted(String tenant, String user, Decision decision,
      List<Headers.Field> limitHeaders, InboundTrace trace, Settling settling) {
    return new InboundAdmission(null, tenant, user, decision, limitHeaders, trace, settling);
  }

  @Override
  public Optional<SyntheticResponse> refusal() {
    return Optional.ofNullable(refusal);
  }

  @Override
  public Optional<String> tenant() {
    return Optional.ofNullable(tenant);
  }

  @Override
  public Optional<String> user() {
    return Optional.ofNullable(user);
  }

  @Override
  public Optional<Decision> decision() {
    return Optional.ofNullable(decision);
  }

  @Override
  public List<Headers.Field> limitHeaders() {
    return limitHeaders;
  }

  @Override
  public boolean settles() {
    return settling != null;
  }

  @Override
  public Scope makeCurrent() {
    return trace.makeCurrent();
  }

  @Override
  public synchronized void onBytes(byte[] bytes, int offset, int length, Supplier<String> contentType) {
    if (settling == null || !settling.observe || length <= 0 || ended.get()) {
      return;
    }
    if (tap == null) {
      String type = contentType.get();
      LlmRequest read = asRead();
      tap = read != null ? settling.protocol.newUsageTap(type, read)
          : settling.protocol.newUsageTap(type, false);
    }
    tap.onBytes(bytes, offset, length);
  }

  @Override
  public synchronized void restart() {
    tap = null;
  }

  @Override
  public void settle(int status, Throwable failure) {
    if (!ended.compareAndSet(false, true)) {
      return;
    }
    if (settling == null) {
      trace.ended(status);
      return;
    }
    Usage usage;
    synchronized (this) {
      if (tap == null) {
        usage = Usage.unknown();
      } else {
        if (failure == null) {
          tap.onEnd();
        } else {
          tap.onError(failure);
        }
        usage = tap.result();
      }
    }
    long estimate = settling.readSoFar == null ? settling.reserved().tokens()
        : asRead().estimate().totalTokens();
    long tokens = tokensToSettle(usage, status, failure != null, settling.bodiless, estimate);
    long spend = spendToSettle(usage, status, failure != null, settling.bodiless);
    try {
      settleReservations(tokens, spend);
    } catch (RuntimeException e) {
      // The response is gone already; the reservations keep their estimate charged.
      LOG.log(Level.WARNING, "settling " + settling.reservations + " with " + tokens + " tokens failed", e);
    }
    trace.settled(usage, tokens, status, failure);
  }

  /** A tenant's reservation alone as before users; a user's and its tenant's in one go. */
  private void settleReservations(long tokens, long spend) {
    if (settling.reservations.size() == 1) {
      settling.limiter.settle(settling.reserved(), tokens, spend);
      return;
    }
    List<Settlement> settlements = new ArrayList<>(settling.reservations.size());
    settling.reservations.forEach(reserved -> settlements.add(new Settlement(reserved, tokens, spend)));
    settling.limiter.settleEach(settlements);
  }

  /**
   * The request as far as the app has read it: a chunked body held in part is estimated again by
   * the bytes read so far (all of them once the app has read it), never below its reserve.
   */
  private LlmRequest asRead() {
    LlmRequest request = settling.request;
    if (settling.readSoFar == null || request == null) {
      return request;
    }
    LlmRequest sized = request.withPromptBySize(settling.readSoFar.getAsLong());
    return sized.estimate().totalTokens() < request.estimate().totalTokens() ? request : sized;
  }

  /** The rule of the class comment. */
  /** Spend by the same rules as tokens: the usage priced, else nothing or the estimate. */
  private long spendToSettle(Usage usage, int status, boolean failed, boolean bodiless) {
    if (usage.known()) {
      Optional<String> model = settling.request == null ? Optional.empty()
          : settling.request.modelOrDeployment();
      return settling.pricing.cost(usage, model).map(Pricing.Cost::microUsd).orElse(0L);
    }
    return failed || status >= 400 || bodiless ? 0 : settling.reserved().spend();
  }

  static long tokensToSettle(Usage usage, int status, boolean failed, boolean bodiless, long estimate) {
    if (usage.known()) {
      return usage.totalTokens();
    }
    if (failed || status >= 400 || bodiless) {
      return 0;
    }
    return estimate;
  }
}
