package io.tollgate.agent.it.app;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.trace.ReadWriteSpan;
import io.opentelemetry.sdk.trace.ReadableSpan;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.SpanProcessor;
import java.util.concurrent.TimeUnit;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;

/**
 * An app that traces itself with its own (unrelocated) OpenTelemetry SDK: it opens a span, makes
 * one OkHttp call inside it, and prints what an HTTP client instrumentation would see: the span
 * current on OkHttp's network thread of the call.
 *
 * <pre>
 * TracedOkHttpApp URL JSON
 * </pre>
 *
 * Prints {@code app-span TRACE_ID SPAN_ID}, {@code network-span SPAN_ID} per request sent, and
 * {@code status N}.
 */
public final class TracedOkHttpApp {

  private TracedOkHttpApp() {}

  public static void main(String[] args) throws Exception {
    OpenTelemetrySdk sdk = OpenTelemetrySdk.builder()
        // the app keeps its spans to itself: a processor that drops them (with none, the SDK
        // would hand out no-op spans)
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
        .buildAndRegisterGlobal();
    Tracer tracer = sdk.getTracer("traced-app");
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
      sdk.close();
    }
    System.out.println("app done");
  }
}
