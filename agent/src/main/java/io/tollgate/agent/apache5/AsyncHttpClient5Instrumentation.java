package io.tollgate.agent.apache5;

import io.tollgate.agent.instrumentation.Hook;
import io.tollgate.agent.instrumentation.MethodFilter;
import io.tollgate.agent.instrumentation.TypeInstrumentation;
import java.util.List;

/**
 * {@code doExecute(HttpHost, AsyncRequestProducer, AsyncResponseConsumer, HandlerFactory,
 * HttpContext, FutureCallback)} of the async clients (those of {@code HttpAsyncClients}' builders,
 * HTTP/1.1 and HTTP/2, and the minimal ones), where every {@code execute} overload arrives: a call
 * to a provider runs through the gate's asynchronous path in place of the original body, which is
 * skipped, and the method returns the gate's future.
 */
public final class AsyncHttpClient5Instrumentation implements TypeInstrumentation {

  @Override
  public List<String> typeNames() {
    return List.of("org.apache.hc.client5.http.impl.async.InternalAbstractHttpAsyncClient",
        "org.apache.hc.client5.http.impl.async.AbstractMinimalHttpAsyncClientBase");
  }

  @Override
  public void transform(Hooks hooks) {
    hooks.answer(MethodFilter.named("doExecute", 6),
        Hook.method(ApacheHttpClient5InstrumentationModule.HELPERS + "Async5Execution", "handle"));
  }
}
