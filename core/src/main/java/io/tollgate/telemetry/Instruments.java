package io.tollgate.telemetry;

import static io.tollgate.telemetry.TollgateAttributes.BREAKER_PREVIOUS_STATE;
import static io.tollgate.telemetry.TollgateAttributes.BREAKER_REASON;
import static io.tollgate.telemetry.TollgateAttributes.BREAKER_STATE;
import static io.tollgate.telemetry.TollgateAttributes.PROVIDER;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.Tracer;
import io.tollgate.router.BreakerTransition;
import java.util.Locale;

/**
 * The tracer of one {@link OpenTelemetry} and the {@link MetricsRecorder} the measurements go to,
 * built once. Only handed out by {@link Telemetry#instruments()} when something records, so every
 * method here may build attributes freely.
 */
public final class Instruments {

  private final Tracer tracer;
  private final MetricsRecorder metrics;

  Instruments(Tracer tracer, MetricsRecorder metrics) {
    this.tracer = tracer;
    this.metrics = metrics;
  }

  public Tracer tracer() {
    return tracer;
  }

  /** One decision of the gate ({@code outbound}, with the provider) or the filter ({@code inbound}). */
  public void decision(String decision, String direction, String provider) {
    metrics.decision(decision, direction, provider);
  }

  public void limiterDuration(long nanos, String provider, boolean degraded) {
    metrics.limiterDuration(nanos, provider, degraded);
  }

  public void tokensReserved(String provider, long tokens) {
    metrics.tokensReserved(provider, tokens);
  }

  public void tokensUsed(String provider, long input, long output) {
    metrics.tokensUsed(provider, input, output);
  }

  public void cost(String provider, String model, double usd) {
    metrics.cost(provider, model, usd);
  }

  public void unpriced(String provider) {
    metrics.unpriced(provider);
  }

  public void fallback(String from, String to) {
    metrics.fallback(from, to);
  }

  void breakerTransition(BreakerTransition transition) {
    String to = Telemetry.STATE_NAMES.get(transition.to());
    metrics.breakerTransition(transition.provider(), to);
    Span current = Span.current();
    if (current.isRecording()) {
      current.addEvent(TelemetryNames.BREAKER_TRANSITION_EVENT, Attributes.of(
          PROVIDER, transition.provider(),
          BREAKER_PREVIOUS_STATE, Telemetry.STATE_NAMES.get(transition.from()),
          BREAKER_STATE, to,
          BREAKER_REASON, transition.reason().name().toLowerCase(Locale.ROOT)));
    }
  }
}
