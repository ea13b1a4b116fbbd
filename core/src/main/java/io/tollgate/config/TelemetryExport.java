package io.tollgate.config;

/** {@code tollgate.telemetry.export}: whether the agent starts an OpenTelemetry SDK of its own. */
public enum TelemetryExport {
  /** Export nothing of our own: spans and metrics go to the app's or an agent's OpenTelemetry, if any. */
  NONE,
  /**
   * When the app's or an agent's OpenTelemetry is not set at the agent's first record, the agent
   * starts the OpenTelemetry SDK with OTLP export, set by the standard {@code otel.*} settings.
   */
  OTLP
}
