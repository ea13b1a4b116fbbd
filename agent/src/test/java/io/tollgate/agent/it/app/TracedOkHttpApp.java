package io.tollgate.agent.it.app;

import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import io.opentelemetry.exporter.otlp.http.metrics.OtlpHttpMetricExporter;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.export.PeriodicMetricReader;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.ReadWriteSpan;
import io.opentelemetry.sdk.trace.ReadableSpan;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.SpanProcessor;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;

/**
 * An app that traces itself with its own (unrelocated) OpenTelemetry SDK, kept private or
 * registered as the global one (see {@link #main}): it opens a span, makes
 * one OkHttp call inside it, and prints what an HTTP client instrumentation would see: the span
 * current on OkHttp's network thread of the call.
 *
 * <pre>
 * TracedOkHttpApp URL JSON
 * </pre>
 *
 * With {@code -Dapp.otlp.endpoint=URL} the SDK is the app's {@code GlobalOpenTelemetry} and exports
 * to that OTLP/HTTP endpoint; without, it is private and drops its spans. With
 * {@code -Dapp.api-only=true} the app runs no SDK and traces through
 * {@code GlobalOpenTelemetry.getTracer}: what the OpenTelemetry Java agent serves.
 *
 * Prints {@code app-span TRACE_ID SPAN_ID}, {@code network-span SPAN_ID} per request sent, and
 * {@code status N}.
 */
public final class TracedOkHttpApp {

  private TracedOkHttpApp() {}

  /**
   * Without {@code -Dapp.otlp.endpoint}: an SDK the app keeps to itself (not registered as
   * {@code GlobalOpenTelemetry}) that drops its spans.
   */
  private static OpenTelemetrySdk privateSdk() {
    return OpenTelemetrySdk.builder()
        // with no processor at all, the SDK would hand out no-op spans
        .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(new SpanProcessor() {
          @Override
          public void onStart(Context parentContext, ReadWriteSpan span) {}

          @Override
          public boolean isStartRequired() {
            return false;
          }

          @Override
          public void onEnd(ReadableSpan span) {}

          @Override
          public boolean isEndRequired() {
            return false;
          }
        }).build())
        .build();
  }

  /**
   * With {@code -Dapp.otlp.endpoint=URL}: the app's SDK, registered as {@code GlobalOpenTelemetry},
   * exporting spans and metrics over OTLP/HTTP as service {@code traced-app-sdk}.
   */
  private static OpenTelemetrySdk globalSdk(String endpoint) {
    Resource resource = Resource.getDefault().merge(Resource.create(
        Attributes.of(AttributeKey.stringKey("service.name"), "traced-app-sdk")));
    return OpenTelemetrySdk.builder()
        .setTracerProvider(SdkTracerProvider.builder().setResource(resource)
            .addSpanProcessor(BatchSpanProcessor.builder(OtlpHttpSpanExporter.builder()
                .setEndpoint(endpoint + "/v1/traces").build())
                .setScheduleDelay(Duration.ofMillis(50)).build())
            .build())
        .setMeterProvider(SdkMeterProvider.builder().setResource(resource)
            .registerMetricReader(PeriodicMetricReader.builder(OtlpHttpMetricExporter.builder()
                .setEndpoint(endpoint + "/v1/metrics").build())
                .setInterval(Duration.ofMillis(200)).build())
            .build())
        .buildAndRegisterGlobal();
  }

  public static void main(String[] args) throws Exception {
    String exportTo = System.getProperty("app.otlp.endpoint");
    OpenTelemetrySdk sdk = Boolean.getBoolean("app.api-only") ? null
        : exportTo == null ? privateSdk() : globalSdk(exportTo);
    Tracer tracer = sdk == null ? GlobalOpenTelemetry.getTracer("traced-app")
        : sdk.getTracer("traced-app");
    OkHttpClient client = new OkHttpClient.Builder()
        .readTimeout(20, TimeUnit.SECONDS)
        // runs below Tollgate's interceptor, once per request actually sent, like an HTTP client span
        .addNetworkInterceptor(chain -> {
          System.out.println("network-span " + Span.current().getSpanContext().getSpanId());
          return chain.proceed(chain.request());
        })
        .build();
    Span span = tracer.spanBuilder("app.work").startSpan();
    try (Scope scope = span.makeCurrent()) {
      System.out.println("app-span " + span.getSpanContext().getTraceId() + " "
          + span.getSpanContext().getSpanId());
      Request request = new Request.Builder().url(args[0])
          .header("Authorization", "Bearer " + System.getenv().getOrDefault("APP_KEY", "app-key"))
          .post(RequestBody.create(MediaType.parse("application/json"), args[1]))
          .build();
      try (Response response = client.newCall(request).execute()) {
        response.body().string();
        System.out.println("status " + response.code());
      }
    } finally {
      span.end();
      client.dispatcher().executorService().shutdown();
      client.connectionPool().evictAll();
      if (sdk != null) {
        // flushed explicitly: on older SDKs (1.49) close() alone may exit before the last export.
        // A flush that meets a periodic export in flight fails at once without collecting (the
        // SDK's PeriodicMetricReader: "Exporter busy"), which lost the metrics recorded since the
        // last collection: flushed again until one collects.
        for (int flush = 0; flush < 50; flush++) {
          if (sdk.getSdkMeterProvider().forceFlush().join(10, TimeUnit.SECONDS).isSuccess()) {
            break;
          }
          Thread.sleep(20);
        }
        sdk.getSdkTracerProvider().forceFlush().join(10, TimeUnit.SECONDS);
        sdk.close();
      }
    }
    System.out.println("app done");
  }
}
