package io.tollgate.agent.telemetry;

import io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdkBuilder;
import io.tollgate.config.TelemetryExport;
import io.tollgate.config.TollgateConfig;
import io.tollgate.telemetry.Telemetry;
import java.util.Map;

/**
 * Where the agent's spans and metrics go. The agent carries its own, relocated copy of the
 * OpenTelemetry API, which nobody but the agent can register anything in: without
 * {@code tollgate.telemetry.export: otlp} it records nothing at all. With it, the agent starts the
 * OpenTelemetry SDK itself (autoconfigured from the standard {@code otel.*} system properties and
 * {@code OTEL_*} environment variables; OTLP over HTTP/protobuf by default, sent by the JDK's
 * HttpClient), and hangs its spans in the app's traces through {@link AppContextLink}.
 */
public final class AgentTelemetry {

  private AgentTelemetry() {}

  /** The telemetry {@code config} asks for; starts the SDK when it asks for OTLP. */
  public static Telemetry start(TollgateConfig config) {
    if (config.telemetry().export() != TelemetryExport.OTLP) {
      return Telemetry.noop();
    }
    AutoConfiguredOpenTelemetrySdkBuilder builder = AutoConfiguredOpenTelemetrySdk.builder()
        .setServiceClassLoader(AgentTelemetry.class.getClassLoader())
        // Defaults only: any otel.* property or OTEL_* variable the user sets wins.
        .addPropertiesSupplier(() -> Map.of(
            // the JDK sender speaks HTTP only: gRPC would need OkHttp or grpc-java in the jar
            "otel.exporter.otlp.protocol", "http/protobuf",
            "otel.logs.exporter", "none",
            "otel.service.name", System.getProperty("otel.service.name", "tollgate-agent")));
    UntracedExport untraced = new UntracedExport();
    builder.addSpanExporterCustomizer((exporter, properties) -> untraced.wrap(exporter))
        .addMetricExporterCustomizer((exporter, properties) -> untraced.wrap(exporter));
    AutoConfiguredOpenTelemetrySdk sdk = builder.build();
    // autoconfigure registers a shutdown hook that flushes and closes the SDK
    return Telemetry.of(sdk.getOpenTelemetrySdk(), AppContextLink.create());
  }
}
