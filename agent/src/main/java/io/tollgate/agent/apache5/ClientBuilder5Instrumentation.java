package io.tollgate.agent.apache5;

import io.tollgate.agent.instrumentation.Hook;
import io.tollgate.agent.instrumentation.MethodFilter;
import io.tollgate.agent.instrumentation.Passed;
import io.tollgate.agent.instrumentation.TypeInstrumentation;
import java.util.List;

/**
 * {@code build()} of the classic, async and HTTP/2 async client builders: each client they make
 * ends its request interceptors with Tollgate's {@code OriginGuard5}, so that no credential of a
 * provider call follows a redirect off the provider's origin.
 */
public final class ClientBuilder5Instrumentation implements TypeInstrumentation {

  @Override
  public List<String> typeNames() {
    return List.of("org.apache.hc.client5.http.impl.classic.HttpClientBuilder",
        "org.apache.hc.client5.http.impl.async.HttpAsyncClientBuilder",
        "org.apache.hc.client5.http.impl.async.H2AsyncClientBuilder");
  }

  @Override
  public void transform(Hooks hooks) {
    hooks.atEnter(MethodFilter.named("build", 0), Passed.THIS,
        Hook.method(ApacheHttpClient5InstrumentationModule.HELPERS + "OriginGuard5", "addTo"));
  }
}
