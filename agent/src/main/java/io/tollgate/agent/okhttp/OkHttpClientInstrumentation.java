package io.tollgate.agent.okhttp;

import io.tollgate.agent.instrumentation.Hook;
import io.tollgate.agent.instrumentation.MethodFilter;
import io.tollgate.agent.instrumentation.Passed;
import io.tollgate.agent.instrumentation.TypeInstrumentation;
import io.tollgate.agent.okhttp.helpers.OriginGuard;
import java.util.List;

/**
 * Every {@code OkHttpClient} made from a builder ({@code build()}, {@code new OkHttpClient()})
 * ends its network interceptors with Tollgate's {@link OriginGuard}: after the app's and
 * its SDK's own, which it must follow.
 */
public final class OkHttpClientInstrumentation implements TypeInstrumentation {

  @Override
  public List<String> typeNames() {
    return List.of("okhttp3.OkHttpClient");
  }

  @Override
  public void transform(Hooks hooks) {
    // by name: nothing of OkHttp is loaded into the agent's view while its classes load
    hooks.atEnter(MethodFilter.constructorsTaking("okhttp3.OkHttpClient$Builder"),
        Passed.FIRST_ARGUMENT, Hook.method(OkHttpInstrumentationModule.HELPERS + "OriginGuard", "addTo"));
  }
}
