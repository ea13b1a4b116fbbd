package io.tollgate.config;

import java.util.Objects;

/** The {@code tollgate.telemetry} section (docs/telemetry.md). */
public final class TelemetryConfig {

  public static final TelemetryExport DEFAULT_EXPORT = TelemetryExport.NONE;

  private static final TelemetryConfig DEFAULTS = new TelemetryConfig(DEFAULT_EXPORT);

  private final TelemetryExport export;

  private TelemetryConfig(TelemetryExport export) {
    this.export = export;
  }

  /** Exports nothing of its own. */
  public static TelemetryConfig ofDefaults() {
    return DEFAULTS;
  }

  public static TelemetryConfig of(TelemetryExport export) {
    return new TelemetryConfig(Objects.requireNonNull(export, "export"));
  }

  /**
   * {@code export}: {@code none} (default) or {@code otlp}: the agent starts the OpenTelemetry SDK
   * itself, exporting over OTLP as the standard {@code otel.*} system properties and
   * {@code OTEL_*} environment variables say, unless the app already runs one. Only the agent reads
   * it; the servlet filter and the Spring starter use the app's OpenTelemetry.
   */
  public TelemetryExport export() {
    return export;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TelemetryConfig other && export == other.export;
  }

  @Override
  public int hashCode() {
    return export.hashCode();
  }

  @Override
  public String toString() {
    return "{export=" + Values.name(export) + "}";
  }
}
