package io.tollgate.agent.apache4;

import io.tollgate.agent.instrumentation.Hook;
import io.tollgate.agent.instrumentation.MethodFilter;
import io.tollgate.agent.instrumentation.TypeInstrumentation;
import java.util.List;

/**
 * {@code doExecute(HttpHost, HttpRequest, HttpContext)} of HttpClient 4.5's clients (those of
 * {@code HttpClientBuilder}, {@code HttpClients.createMinimal()}, and the deprecated
 * {@code DefaultHttpClient} family), where every {@code execute} overload (with or without a
 * response handler) arrives: a call to a provider runs through the gate in place of the original
 * body, which is skipped.
 */
public final class ClassicHttpClient4Instrumentation implements TypeInstrumentation {

  @Override
  public List<String> typeNames() {
    return List.of("org.apache.http.impl.client.InternalHttpClient",
        "org.apache.http.impl.client.MinimalHttpClient",
        "org.apache.http.impl.client.AbstractHttpClient");
  }

  @Override
  public void transform(Hooks hooks) {
    hooks.answer(MethodFilter.named("doExecute", 3),
        Hook.method(ApacheHttpClient4InstrumentationModule.HELPERS + "Classic4Execution", "handle"));
  }
}
