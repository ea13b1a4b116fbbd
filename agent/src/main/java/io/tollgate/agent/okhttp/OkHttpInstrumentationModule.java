package io.tollgate.agent.okhttp;

import io.tollgate.agent.instrumentation.InstrumentationModule;
import io.tollgate.agent.instrumentation.TypeInstrumentation;
import java.util.List;

/**
 * OkHttp 3.14+, 4.x and 5.x: one application interceptor, first in every client's chain, added
 * where the builders are made; one network interceptor, last in every client's chain, added as
 * each client is made (no credential follows a redirect off a provider's origin, and a fallback's
 * stays on the fallback's request); and the
 * synchronous {@code execute()} marked as a thread that may wait.
 */
public final class OkHttpInstrumentationModule implements InstrumentationModule {

  static final String HELPERS = "io.tollgate.agent.okhttp.helpers.";

  @Override
  public String name() {
    return "okhttp";
  }

  @Override
  public List<TypeInstrumentation> typeInstrumentations() {
    return List.of(new OkHttpClientBuilderInstrumentation(), new OkHttpClientInstrumentation(),
        new RealCallInstrumentation());
  }

  @Override
  public List<String> helperClassNames() {
    return List.of(
        HELPERS + "UsageObserverStream",
        HELPERS + "UsageTappingSource",
        HELPERS + "TappedResponseBody",
        HELPERS + "OkHttpTransport",
        HELPERS + "OkHttpTransport$ProceedFailure",
        HELPERS + "OkHttpMessages",
        HELPERS + "GatedCall",
        HELPERS + "HeldRequestBody",
        HELPERS + "TollgateInterceptor",
        HELPERS + "OriginGuard",
        HELPERS + "OriginGuard$Tag");
  }
}
