package io.tollgate.agent.apache4;

import io.tollgate.agent.instrumentation.Hook;
import io.tollgate.agent.instrumentation.MethodFilter;
import io.tollgate.agent.instrumentation.TypeInstrumentation;
import java.util.List;

/**
 * {@code execute(HttpRequest, HttpClientConnection, HttpContext)} of HttpCore 4's
 * {@code HttpRequestExecutor}, through which every HttpClient 4.5 client writes each request, each
 * hop of a redirect included: a provider call's request to another origin is stripped of every
 * header that may not leave it (see {@code OriginGuard4}).
 */
public final class RequestExecutor4Instrumentation implements TypeInstrumentation {

  @Override
  public List<String> typeNames() {
    return List.of("org.apache.http.protocol.HttpRequestExecutor");
  }

  @Override
  public void transform(Hooks hooks) {
    hooks.answer(MethodFilter.named("execute", 3),
        Hook.method(ApacheHttpClient4InstrumentationModule.HELPERS + "OriginGuard4", "beforeExecute"));
  }
}
