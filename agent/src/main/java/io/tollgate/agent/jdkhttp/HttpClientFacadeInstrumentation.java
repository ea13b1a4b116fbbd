package io.tollgate.agent.jdkhttp;

import io.tollgate.agent.instrumentation.Hook;
import io.tollgate.agent.instrumentation.MethodFilter;
import io.tollgate.agent.instrumentation.TypeInstrumentation;
import java.util.List;

/**
 * {@code jdk.internal.net.http.HttpClientFacade}, the client every {@code HttpClient.newHttpClient()}
 * and {@code HttpClient.newBuilder().build()} hands the app (checked on JDK 17 and 25), which
 * delegates each call to its {@code HttpClientImpl}: its {@code send(HttpRequest, BodyHandler)} and
 * both public {@code sendAsync}, each of which goes straight to the implementation, so no call passes
 * two of these methods.
 *
 * <p>Why the facade and not the implementation: the OpenTelemetry Java agent instruments
 * {@code HttpClientImpl} (and leaves the facade alone), and suppresses a client span inside another
 * ({@code sendAsync} even by call depth on the thread). Gated at the facade, Tollgate's hooks are
 * outside the OpenTelemetry agent's whichever agent attaches first, and each attempt, sent through
 * the facade again (passed through) into the implementation, gets its own client span under the
 * attempt's.
 *
 * <p>The hooks are woven into a class of the {@code java.net.http} module: they name no class of
 * the agent, only {@link JdkHttpBridge}'s method handles, as dynamic constants. An answer that is
 * a {@code Throwable} is thrown to the app in the method's place.
 */
public final class HttpClientFacadeInstrumentation implements TypeInstrumentation {

  static final String TYPE = "jdk.internal.net.http.HttpClientFacade";

  @Override
  public List<String> typeNames() {
    return List.of(TYPE);
  }

  @Override
  public void transform(Hooks hooks) {
    hooks.answer(MethodFilter.named("send", 2), Hook.bridge(JdkHttpBridge.class, "SEND"));
    hooks.answer(MethodFilter.named("sendAsync", 2).andPublic(),
        Hook.bridge(JdkHttpBridge.class, "SEND_ASYNC"));
    hooks.answer(MethodFilter.named("sendAsync", 3).andPublic(),
        Hook.bridge(JdkHttpBridge.class, "SEND_ASYNC_WITH_PUSH_PROMISES"));
  }
}
