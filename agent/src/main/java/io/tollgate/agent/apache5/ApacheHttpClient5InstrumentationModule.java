package io.tollgate.agent.apache5;

import io.tollgate.agent.instrumentation.InstrumentationModule;
import io.tollgate.agent.instrumentation.TypeInstrumentation;
import java.util.List;

/**
 * Apache HttpClient 5.1+, classic and async: every execution of the built-in clients goes through
 * the gate.
 */
public final class ApacheHttpClient5InstrumentationModule implements InstrumentationModule {

  static final String HELPERS = "io.tollgate.agent.apache5.helpers.";

  @Override
  public String name() {
    return "apache-httpclient-5";
  }

  @Override
  public List<TypeInstrumentation> typeInstrumentations() {
    return List.of(new ClassicHttpClient5Instrumentation(), new AsyncHttpClient5Instrumentation(),
        new ClientBuilder5Instrumentation());
  }

  @Override
  public List<String> helperClassNames() {
    return List.of(
        HELPERS + "BufferedEntity",
        HELPERS + "PrefixedEntity",
        HELPERS + "UsageTappingEntity",
        HELPERS + "Classic5Messages",
        HELPERS + "Classic5Client",
        HELPERS + "Classic5Execution",
        HELPERS + "BytesEntityProducer",
        HELPERS + "StreamedRequestProducer",
        HELPERS + "StreamedRequestProducer$CountingChannel",
        HELPERS + "RequestCapture",
        HELPERS + "AsyncAttempt",
        HELPERS + "AsyncAttempt$State",
        HELPERS + "AsyncAttempt$AppResult",
        HELPERS + "Async5Transport",
        HELPERS + "Async5Transport$Ended",
        HELPERS + "Async5Transport$Unbinding",
        HELPERS + "Async5Execution",
        HELPERS + "Async5Execution$Delivery",
        HELPERS + "Async5Execution$Done",
        HELPERS + "OriginGuard5");
  }
}
