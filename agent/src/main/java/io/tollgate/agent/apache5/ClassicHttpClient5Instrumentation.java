package io.tollgate.agent.apache5;

import io.tollgate.agent.instrumentation.Hook;
import io.tollgate.agent.instrumentation.MethodFilter;
import io.tollgate.agent.instrumentation.TypeInstrumentation;
import java.util.List;

/**
 * {@code doExecute(HttpHost, ClassicHttpRequest, HttpContext)} of the classic clients, where every
 * {@code execute} overload (with or without a response handler) arrives: a call to a provider runs
 * through the gate in place of the original body, which is skipped.
 */
public final class ClassicHttpClient5Instrumentation implements TypeInstrumentation {

  @Override
  public List<String> typeNames() {
    return List.of("org.apache.hc.client5.http.impl.classic.InternalHttpClient",
        "org.apache.hc.client5.http.impl.classic.MinimalHttpClient");
  }

  @Override
  public void transform(Hooks hooks) {
    hooks.answer(MethodFilter.named("doExecute", 3),
        Hook.method(ApacheHttpClient5InstrumentationModule.HELPERS + "Classic5Execution", "handle"));
  }
}
