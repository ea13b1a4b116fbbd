package io.tollgate.agent.telemetry;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdkBuilder;
import io.tollgate.config.TelemetryExport;
import io.tollgate.config.TollgateConfig;
import io.tollgate.telemetry.Telemetry;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Where the agent's spans and metrics go. The agent carries its own, relocated copy of the
 * OpenTelemetry API, which the app cannot see; so it records through the app's:
 *
 * <ul>
 *   <li>when the app or the OpenTelemetry Java agent has set its {@code GlobalOpenTelemetry}
 *       ({@link AppGlobal}; looked for at each record until set, never set by us), Tollgate's spans
 *       and metrics are made by that instance ({@link BridgedOpenTelemetry}): its exporter, its
 *       traces;
 *   <li>with {@code tollgate.telemetry.export: otlp}, when no such instance is set at the first
 *       record, the agent starts the OpenTelemetry SDK itself (autoconfigured from the standard
 *       {@code otel.*} system properties and {@code OTEL_*} environment variables; OTLP over
 *       HTTP/protobuf by default, sent by the JDK's HttpClient), and hangs its spans in the app's
 *       traces through {@link AppContextLink};
 *   <li>otherwise nothing is recorded.
 * </ul>
 */
public final class AgentTelemetry {

  /** How long shutdown waits for each export; an unreachable collector must not hold the JVM. */
  private static final long FLUSH_SECONDS = 5;

  private final Telemetry telemetry;
  private final OwnSdk own;

  private AgentTelemetry(Telemetry telemetry, OwnSdk own) {
    this.telemetry = telemetry;
    this.own = own;
  }

  /** The telemetry {@code config} asks for; {@code log} takes the agent's one-line notices. */
  public static AgentTelemetry start(TollgateConfig config, Consumer<String> log) {
    AppGlobal app = new AppGlobal();
    BridgedContextLink link = new BridgedContextLink(app, AppContextLink.create());
    if (config.telemetry().export() != TelemetryExport.OTLP) {
      return new AgentTelemetry(Telemetry.whenAvailable(app::find, link), null);
    }
    OwnSdk own = new OwnSdk(app, log);
    return new AgentTelemetry(Telemetry.whenAvailable(own::decide, link), own);
  }

  public Telemetry telemetry() {
    return telemetry;
  }

  /**
   * At JVM shutdown. Our own SDK first exports what was recorded while the gate still runs (the
   * breaker state gauge reads the live breakers, which {@code closeGate} stops watching), then the
   * gate closes, then the SDK exports what closing recorded and shuts down. An app's SDK is the
   * app's to shut down.
   */
  public void shutdown(Runnable closeGate) {
    OpenTelemetrySdk sdk = own == null ? null : own.started();
    if (sdk != null) {
      sdk.getSdkTracerProvider().forceFlush().join(FLUSH_SECONDS, TimeUnit.SECONDS);
      sdk.getSdkMeterProvider().forceFlush().join(FLUSH_SECONDS, TimeUnit.SECONDS);
    }
    closeGate.run();
    if (sdk != null) {
      sdk.shutdown().join(FLUSH_SECONDS, TimeUnit.SECONDS);
    }
  }

  /** {@code export: otlp}: the app's instance if set at the first record, else our own SDK. */
  private static final class OwnSdk {
    private final AppGlobal app;
    private final Consumer<String> log;
    private OpenTelemetry chosen;
    private OpenTelemetrySdk started;

    OwnSdk(AppGlobal app, Consumer<String> log) {
      this.app = app;
      this.log = log;
    }

    synchronized OpenTelemetry decide() {
      if (chosen == null) {
        BridgedOpenTelemetry bridged = app.find();
        if (bridged != null) {
          log.accept("telemetry: recording into " + bridged.origin()
              + " GlobalOpenTelemetry; export: otlp starts no SDK of its own");
          chosen = bridged;
        } else {
          try {
            started = startSdk();
            chosen = started;
          } catch (RuntimeException | LinkageError e) {
            // on an app thread, in the middle of a call: the call must go on
            log.accept("telemetry: cannot start the OpenTelemetry SDK, recording nothing: " + e);
            chosen = OpenTelemetry.noop();
          }
        }
      }
      return chosen;
    }

    synchronized OpenTelemetrySdk started() {
      return started;
    }
  }

  private static OpenTelemetrySdk startSdk() {
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
    // closed by shutdown(), in order with the gate, not by a shutdown hook of autoconfigure's
    return builder.disableShutdownHook().build().getOpenTelemetrySdk();
  }
}
