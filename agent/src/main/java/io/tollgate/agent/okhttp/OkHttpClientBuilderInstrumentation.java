package io.tollgate.agent.okhttp;

import io.tollgate.agent.instrumentation.Hook;
import io.tollgate.agent.instrumentation.MethodFilter;
import io.tollgate.agent.instrumentation.Passed;
import io.tollgate.agent.instrumentation.TypeInstrumentation;
import java.util.List;

/**
 * Every {@code OkHttpClient.Builder} (and so every client, {@code new OkHttpClient()} included)
 * starts with Tollgate's interceptor first in its application interceptors.
 */
public final class OkHttpClientBuilderInstrumentation implements TypeInstrumentation {

  @Override
  public List<String> typeNames() {
    return List.of("okhttp3.OkHttpClient$Builder");
  }

  @Override
  public void transform(Hooks hooks) {
    hooks.atReturn(MethodFilter.constructors(), Passed.THIS,
        Hook.method(OkHttpInstrumentationModule.HELPERS + "TollgateInterceptor", "addTo"));
  }
}
