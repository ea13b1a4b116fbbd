package io.tollgate.gate.internal;

import static io.tollgate.telemetry.TollgateAttributes.DECISION;
import static io.tollgate.telemetry.TollgateAttributes.DEGRADED;
import static io.tollgate.telemetry.TollgateAttributes.ERROR_TYPE;
import static io.tollgate.telemetry.TollgateAttributes.GEN_AI_REQUEST_MODEL;
import static io.tollgate.telemetry.TollgateAttributes.GEN_AI_RESPONSE_MODEL;
import static io.tollgate.telemetry.TollgateAttributes.GEN_AI_USAGE_INPUT_TOKENS;
import static io.tollgate.telemetry.TollgateAttributes.GEN_AI_USAGE_OUTPUT_TOKENS;
import static io.tollgate.telemetry.TollgateAttributes.HTTP_RESPONSE_STATUS_CODE;
import static io.tollgate.telemetry.TollgateAttributes.LIMIT;
import static io.tollgate.telemetry.TollgateAttributes.MODE;
import static io.tollgate.telemetry.TollgateAttributes.TENANT_HASH;
import static io.tollgate.telemetry.TollgateAttributes.TOKENS_RESERVED;
import static io.tollgate.telemetry.TollgateAttributes.TOKENS_SETTLED;
import static io.tollgate.telemetry.TollgateAttributes.fromOutside;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.tollgate.config.Mode;
import io.tollgate.config.TenantsConfig;
import io.tollgate.limiter.Decision;
import io.tollgate.llm.LlmRequest;
import io.tollgate.llm.Usage;
import io.tollgate.telemetry.Decisions;
import io.tollgate.telemetry.DeniedLimit;
import io.tollgate.telemetry.Instruments;
import io.tollgate.telemetry.Telemetry;
import io.tollgate.telemetry.TelemetryNames;

/**
 * The {@code tollgate.inbound} span of one inbound request and its decision metric
 * (docs/telemetry.md). {@link #NONE} when nothing records: no attribute is built then.
 */
class InboundTrace {

  static final InboundTrace NONE = new InboundTrace();
  /**
   * The scope the tenant hash of a span is taken in: the outbound one, so that a tenant's inbound
   * and outbound spans carry the same hash.
   */
  private static final String OUTBOUND_SCOPE = GateParts.TENANT_SCOPE;

  private InboundTrace() {}

  /** A request whose tenant is known, about to be charged. */
  /** {@code enforce}, {@code shadow} or {@code advisory}: what the span says of a decision. */
  static String modeName(Mode mode) {
    return mode.name().toLowerCase(java.util.Locale.ROOT);
  }

  static InboundTrace start(Telemetry telemetry, Mode mode, TenantsConfig tenants, String tenant) {
    Instruments instruments = telemetry.instruments();
    return instruments == null ? NONE : new Recording(instruments, mode,
        tenants.subject(OUTBOUND_SCOPE, tenant).idHash());
  }

  /**
   * A request charged to no tenant: it named none ({@link Decisions#MISSING_TENANT}), named an
   * invalid one or one that {@code known-only} refuses. Its span carries no tenant hash.
   */
  static void refusedTenant(Telemetry telemetry, Mode mode, String reason) {
    Instruments instruments = telemetry.instruments();
    if (instruments != null) {
      String decision = mode.blocks() ? reason
          : reason.equals(Decisions.MISSING_TENANT) ? Decisions.SHADOW_ALLOWED : Decisions.SHADOW_DENIED;
      Span span = instruments.tracer().spanBuilder(TelemetryNames.INBOUND_SPAN)
          .setSpanKind(SpanKind.INTERNAL)
          .setAttribute(MODE, modeName(mode))
          .setAttribute(DECISION, decision)
          .startSpan();
      span.end();
      instruments.decision(decision, "inbound", null);
    }
  }

  /** What the body asked for, and what was reserved. */
  void estimated(LlmRequest request, long tokens) {}

  /** @param scope the scope of the subject that refused: {@code inbound}, or {@code inbound-user} */
  void decided(Decision decision, String scope, long tokens, long nanos) {}

  /** Makes the span current while the app serves the request: its LLM calls become children. */
  Scope makeCurrent() {
    return Scope.noop();
  }

  /** The tenant is not limited: only bound. */
  void unlimited() {}

  /** The request was settled; the span ends. */
  void settled(Usage usage, long tokens, int status, Throwable failure) {}

  /** The request ended without a settle (refused, or shadow-refused and served). */
  void ended(int status) {}

  private static final class Recording extends InboundTrace {
    private final Instruments instruments;
    private final Mode mode;
    private final Span span;
    private final Context context;

    Recording(Instruments instruments, Mode mode, String tenantHash) {
      this.instruments = instruments;
      this.mode = mode;
      this.span = instruments.tracer().spanBuilder(TelemetryNames.INBOUND_SPAN)
          .setSpanKind(SpanKind.INTERNAL)
          .setAttribute(MODE, modeName(mode))
          .setAttribute(TENANT_HASH, tenantHash)
          .startSpan();
      this.context = Context.current().with(span);
    }

    @Override
    void estimated(LlmRequest request, long tokens) {
      span.setAttribute(TOKENS_RESERVED, tokens);
      if (request != null) {
        request.modelOrDeployment().ifPresent(model -> span.setAttribute(GEN_AI_REQUEST_MODEL, fromOutside(model)));
      }
    }

    @Override
    void decided(Decision decision, String scope, long tokens, long nanos) {
      String outcome = !mode.blocks()
          ? (decision.allowed() ? Decisions.SHADOW_ALLOWED : Decisions.SHADOW_DENIED)
          : (decision.allowed() ? Decisions.ALLOWED : Decisions.DENIED);
      span.setAttribute(DECISION, outcome);
      span.setAttribute(DEGRADED, decision.degraded());
      if (!decision.allowed()) {
        span.setAttribute(LIMIT, DeniedLimit.name(scope, decision, tokens));
      }
      instruments.limiterDuration(nanos, null, decision.degraded());
      instruments.decision(outcome, "inbound", null);
      if (decision.allowed()) {
        instruments.tokensReserved(null, tokens);
      }
    }

    @Override
    Scope makeCurrent() {
      return context.makeCurrent();
    }

    @Override
    void unlimited() {
      span.setAttribute(DECISION, Decisions.ALLOWED);
      instruments.decision(Decisions.ALLOWED, "inbound", null);
    }

    @Override
    void settled(Usage usage, long tokens, int status, Throwable failure) {
      span.setAttribute(TOKENS_SETTLED, tokens);
      if (usage.known()) {
        span.setAttribute(GEN_AI_USAGE_INPUT_TOKENS, usage.inputTokens());
        span.setAttribute(GEN_AI_USAGE_OUTPUT_TOKENS, usage.outputTokens());
        instruments.tokensUsed(null, usage.inputTokens(), usage.outputTokens());
      }
      usage.model().ifPresent(model -> span.setAttribute(GEN_AI_RESPONSE_MODEL, fromOutside(model)));
      if (failure != null) {
        span.setAttribute(ERROR_TYPE, failure.getClass().getName());
        span.setStatus(StatusCode.ERROR);
      }
      ended(status);
    }

    @Override
    void ended(int status) {
      span.setAttribute(HTTP_RESPONSE_STATUS_CODE, (long) status);
      span.end();
    }
  }
}
