package io.tollgate.gate.internal;

import static io.tollgate.telemetry.TollgateAttributes.ATTEMPT;
import static io.tollgate.telemetry.TollgateAttributes.BREAKER_STATE;
import static io.tollgate.telemetry.TollgateAttributes.DECISION;
import static io.tollgate.telemetry.TollgateAttributes.DEGRADED;
import static io.tollgate.telemetry.TollgateAttributes.COST;
import static io.tollgate.telemetry.TollgateAttributes.COST_RESERVED;
import static io.tollgate.telemetry.TollgateAttributes.ERROR_TYPE;
import static io.tollgate.telemetry.TollgateAttributes.FALLBACK_FROM;
import static io.tollgate.telemetry.TollgateAttributes.FALLBACK_TO;
import static io.tollgate.telemetry.TollgateAttributes.GEN_AI_PROVIDER_NAME;
import static io.tollgate.telemetry.TollgateAttributes.GEN_AI_REQUEST_MODEL;
import static io.tollgate.telemetry.TollgateAttributes.GEN_AI_RESPONSE_MODEL;
import static io.tollgate.telemetry.TollgateAttributes.GEN_AI_SYSTEM;
import static io.tollgate.telemetry.TollgateAttributes.GEN_AI_USAGE_INPUT_TOKENS;
import static io.tollgate.telemetry.TollgateAttributes.GEN_AI_USAGE_OUTPUT_TOKENS;
import static io.tollgate.telemetry.TollgateAttributes.HTTP_RESPONSE_STATUS_CODE;
import static io.tollgate.telemetry.TollgateAttributes.LIMIT;
import static io.tollgate.telemetry.TollgateAttributes.MODE;
import static io.tollgate.telemetry.TollgateAttributes.PROVIDER;
import static io.tollgate.telemetry.TollgateAttributes.SKIP_REASON;
import static io.tollgate.telemetry.TollgateAttributes.TENANT_HASH;
import static io.tollgate.telemetry.TollgateAttributes.TOKENS_RESERVED;
import static io.tollgate.telemetry.TollgateAttributes.TOKENS_SETTLED;
import static io.tollgate.telemetry.TollgateAttributes.WAIT_MS;
import static io.tollgate.telemetry.TollgateAttributes.fromOutside;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.tollgate.config.ProviderConfig;
import io.tollgate.limiter.Charge;
import io.tollgate.limiter.JointDecision;
import io.tollgate.llm.ProviderApi;
import io.tollgate.llm.Usage;
import io.tollgate.router.BreakerState;
import io.tollgate.router.ProviderBreaker;
import io.tollgate.telemetry.Decisions;
import io.tollgate.telemetry.DeniedLimit;
import io.tollgate.telemetry.Instruments;
import io.tollgate.telemetry.Telemetry;
import io.tollgate.telemetry.TelemetryNames;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

/**
 * The spans and metrics of one {@link Call}: a {@code tollgate.call} span with a child
 * {@code tollgate.attempt} span per request sent (docs/telemetry.md). {@link #NONE} when nothing
 * records, so a call without telemetry builds no attribute at all.
 */
class CallTrace {

  static final CallTrace NONE = new CallTrace();

  private CallTrace() {}

  /** @param tenantHash what the span shows of the tenant: its subject's hash, never the id */
  static CallTrace start(Telemetry telemetry, ProviderConfig addressed, Optional<String> model,
      Optional<String> tenant, Function<String, String> tenantHash, long estimate, boolean shadow) {
    Instruments instruments = telemetry.instruments();
    return instruments == null ? NONE : new Recording(instruments, telemetry, addressed, model,
        tenant.map(tenantHash), estimate, shadow);
  }

  /** Makes the call's span current, so breaker transitions it causes become its events. */
  Scope makeCurrent() {
    return Scope.noop();
  }

  /** Makes the current attempt's span current in the app's context while it is sent. */
  Scope attemptScope() {
    return Scope.noop();
  }

  void limiterDecided(String provider, JointDecision decision, List<Charge> charges, long estimate,
      long spend, long nanos) {}

  /** @param breaker the provider's breaker, when it is the reason */
  void skipped(String provider, String reason, ProviderBreaker breaker) {}

  /** @param breaker the provider's breaker (its state tells a probe), null in shadow mode */
  void attemptStarted(String provider, int attempt, String fallbackFrom, Optional<String> model,
      ProviderBreaker breaker) {}

  void attemptAnswered(int status) {}

  void attemptFailed(IOException error) {}

  void waiting(Duration wait) {}

  /** A wait for its turn in a line ({@link WaitLines}): counted in the wait, not an event each. */
  void waitingItsTurn(Duration wait) {}

  /**
   * The call's answer is known.
   *
   * @param settlesLater true when a usage tap will report the usage: the span ends then
   */
  void finished(String decision, String provider, boolean settlesLater) {}

  void failed(IOException error) {}

  /** @param cost what the usage cost, when its model has a price */
  void settled(String provider, Usage usage, long settledTokens, Optional<Pricing.Cost> cost) {}

  void abandoned() {}

  /** The recording twin: only built when something records. */
  private static final class Recording extends CallTrace {
    private final Instruments instruments;
    private final Telemetry telemetry;
    private final String addressed;
    private final Span span;
    private final Context context;
    private Span attemptSpan;
    private Context attemptContext;
    private boolean degraded;
    private long waitedMillis;
    private String deniedBy;
    private boolean finished;

    Recording(Instruments instruments, Telemetry telemetry, ProviderConfig addressed,
        Optional<String> model, Optional<String> tenantHash, long estimate, boolean shadow) {
      this.instruments = instruments;
      this.telemetry = telemetry;
      this.addressed = addressed.name();
      Context parent = telemetry.link().parent();
      var builder = instruments.tracer().spanBuilder(TelemetryNames.CALL_SPAN)
          .setParent(parent)
          .setSpanKind(SpanKind.INTERNAL)
          .setAttribute(GEN_AI_PROVIDER_NAME, genAiProvider(addressed.api()))
          .setAttribute(GEN_AI_SYSTEM, genAiProvider(addressed.api()))
          .setAttribute(PROVIDER, addressed.name())
          .setAttribute(TOKENS_RESERVED, estimate)
          .setAttribute(MODE, shadow ? "shadow" : "enforce");
      model.ifPresent(m -> builder.setAttribute(GEN_AI_REQUEST_MODEL, fromOutside(m)));
      tenantHash.ifPresent(hash -> builder.setAttribute(TENANT_HASH, hash));
      this.span = builder.startSpan();
      this.context = parent.with(span);
    }

    @Override
    Scope makeCurrent() {
      return context.makeCurrent();
    }

    @Override
    Scope attemptScope() {
      return attemptContext == null ? Scope.noop() : telemetry.link().attach(attemptContext);
    }

    @Override
    void limiterDecided(String provider, JointDecision decision, List<Charge> charges,
        long estimate, long spend, long nanos) {
      boolean wasDegraded = decision.degraded();
      degraded |= wasDegraded;
      instruments.limiterDuration(nanos, provider, wasDegraded);
      if (decision.allowed()) {
        instruments.tokensReserved(provider, estimate);
        if (spend > 0) {
          span.setAttribute(COST_RESERVED, spend / 1e6);
        }
        return;
      }
      int index = decision.decisions().indexOf(decision.denial().orElseThrow());
      String scope = index < charges.size() ? charges.get(index).subject().scope() : "unknown";
      deniedBy = DeniedLimit.name(scope, decision.denial().get(), estimate, spend);
    }

    @Override
    void skipped(String provider, String reason, ProviderBreaker breaker) {
      AttributesBuilder attributes = Attributes.builder()
          .put(PROVIDER, provider).put(SKIP_REASON, reason);
      if (breaker != null) {
        attributes.put(BREAKER_STATE, stateName(breaker.state()));
      }
      if (reason.equals("limited") && deniedBy != null) {
        attributes.put(LIMIT, deniedBy);
      }
      span.addEvent(TelemetryNames.SKIPPED_EVENT, attributes.build());
    }

    @Override
    void attemptStarted(String provider, int attempt, String fallbackFrom, Optional<String> model,
        ProviderBreaker breaker) {
      endAttempt();
      if (fallbackFrom != null) {
        span.addEvent(TelemetryNames.FALLBACK_EVENT, Attributes.of(
            FALLBACK_FROM, fallbackFrom, FALLBACK_TO, provider, ATTEMPT, (long) attempt));
      }
      var builder = instruments.tracer().spanBuilder(TelemetryNames.ATTEMPT_SPAN)
          .setParent(context)
          .setSpanKind(SpanKind.INTERNAL)
          .setAttribute(PROVIDER, provider)
          .setAttribute(ATTEMPT, (long) attempt);
      if (fallbackFrom != null) {
        builder.setAttribute(FALLBACK_FROM, fallbackFrom);
      }
      model.ifPresent(m -> builder.setAttribute(GEN_AI_REQUEST_MODEL, fromOutside(m)));
      if (breaker != null) {
        builder.setAttribute(BREAKER_STATE, stateName(breaker.state()));
      }
      attemptSpan = builder.startSpan();
      attemptContext = context.with(attemptSpan);
      span.setAttribute(ATTEMPT, (long) attempt);
    }

    @Override
    void attemptAnswered(int status) {
      if (attemptSpan != null) {
        attemptSpan.setAttribute(HTTP_RESPONSE_STATUS_CODE, (long) status);
        if (status >= 400) {
          attemptSpan.setAttribute(ERROR_TYPE, Integer.toString(status));
          attemptSpan.setStatus(StatusCode.ERROR);
        }
      }
      endAttempt();
    }

    @Override
    void attemptFailed(IOException error) {
      if (attemptSpan != null) {
        attemptSpan.setAttribute(ERROR_TYPE, error.getClass().getName());
        attemptSpan.setStatus(StatusCode.ERROR);
      }
      endAttempt();
    }

    @Override
    void waiting(Duration wait) {
      long millis = wait.toMillis();
      waitedMillis += millis;
      span.addEvent(TelemetryNames.WAIT_EVENT, Attributes.of(WAIT_MS, millis));
    }

    @Override
    void waitingItsTurn(Duration wait) {
      waitedMillis += wait.toMillis();
    }

    @Override
    void finished(String decision, String provider, boolean settlesLater) {
      finished = true;
      endAttempt();
      span.setAttribute(DECISION, decision);
      span.setAttribute(PROVIDER, provider);
      span.setAttribute(DEGRADED, degraded);
      if (waitedMillis > 0) {
        span.setAttribute(WAIT_MS, waitedMillis);
      }
      if (!provider.equals(addressed)) {
        span.setAttribute(FALLBACK_FROM, addressed);
        span.setAttribute(FALLBACK_TO, provider);
        instruments.fallback(addressed, provider);
      }
      if (deniedBy != null && (decision.equals(Decisions.DENIED)
          || decision.equals(Decisions.SHADOW_DENIED))) {
        span.setAttribute(LIMIT, deniedBy);
      }
      instruments.decision(decision, "outbound", provider);
      if (!settlesLater) {
        span.end();
      }
    }

    @Override
    void failed(IOException error) {
      finished = true;
      endAttempt();
      span.setAttribute(DECISION, Decisions.ERROR);
      span.setAttribute(DEGRADED, degraded);
      span.setAttribute(ERROR_TYPE, error.getClass().getName());
      span.setStatus(StatusCode.ERROR);
      instruments.decision(Decisions.ERROR, "outbound", addressed);
      span.end();
    }

    @Override
    void settled(String provider, Usage usage, long settledTokens, Optional<Pricing.Cost> cost) {
      span.setAttribute(TOKENS_SETTLED, settledTokens);
      if (usage.known()) {
        span.setAttribute(GEN_AI_USAGE_INPUT_TOKENS, usage.inputTokens());
        span.setAttribute(GEN_AI_USAGE_OUTPUT_TOKENS, usage.outputTokens());
        instruments.tokensUsed(provider, usage.inputTokens(), usage.outputTokens());
        if (cost.isPresent()) {
          double usd = cost.get().microUsd() / 1e6;
          span.setAttribute(COST, usd);
          instruments.cost(provider, cost.get().model(), usd);
        } else {
          instruments.unpriced(provider);
        }
      }
      usage.model().ifPresent(m -> span.setAttribute(GEN_AI_RESPONSE_MODEL, fromOutside(m)));
      span.end();
    }

    @Override
    void abandoned() {
      if (finished) {
        return;
      }
      endAttempt();
      span.setAttribute(ERROR_TYPE, "abandoned");
      span.setStatus(StatusCode.ERROR);
      span.end();
    }

    private void endAttempt() {
      if (attemptSpan != null) {
        attemptSpan.end();
        attemptSpan = null;
        attemptContext = null;
      }
    }
  }

  static String stateName(BreakerState state) {
    return state.name().toLowerCase(Locale.ROOT);
  }

  /** The {@code gen_ai.provider.name} of an API, as the semantic conventions spell it. */
  static String genAiProvider(ProviderApi api) {
    return switch (api) {
      case OPENAI -> "openai";
      case AZURE_OPENAI -> "azure.ai.openai";
      case ANTHROPIC -> "anthropic";
    };
  }
}
