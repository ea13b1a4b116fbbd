package io.tollgate.agent.apache4;

import io.tollgate.agent.instrumentation.Hook;
import io.tollgate.agent.instrumentation.MethodFilter;
import io.tollgate.agent.instrumentation.Passed;
import io.tollgate.agent.instrumentation.TypeInstrumentation;
import java.util.List;

/**
 * {@code close()} of the response HttpClient 4.5's clients return ({@code HttpResponseProxy}, of
 * {@code HttpClientBuilder}'s clients and {@code createMinimal()}): it releases the connection
 * without touching the entity, so a provider's answer closed unread would leave its reservation
 * open. The {@code DefaultHttpClient} family's response consumes its entity on close: no hook.
 */
public final class ResponseClose4Instrumentation implements TypeInstrumentation {

  @Override
  public List<String> typeNames() {
    return List.of("org.apache.http.impl.execchain.HttpResponseProxy");
  }

  @Override
  public void transform(Hooks hooks) {
    hooks.atEnter(MethodFilter.named("close", 0), Passed.THIS,
        Hook.method(ApacheHttpClient4InstrumentationModule.HELPERS + "Classic4Execution", "closing"));
  }
}
