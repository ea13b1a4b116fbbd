package io.tollgate.agent.apache5;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import io.tollgate.agent.instrumentation.TypeInstrumentation;
import io.tollgate.agent.instrumentation.TypeTransformer;
import java.util.List;
import io.tollgate.agent.apache5.helpers.OriginGuard5;
import net.bytebuddy.asm.Advice;

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
  public void transform(TypeTransformer transformer) {
    transformer.applyAdviceToMethod(named("build").and(takesArguments(0)),
        getClass().getName() + "$BuildAdvice");
  }

  /** At the start of {@code build()}. */
  public static final class BuildAdvice {
    private BuildAdvice() {}

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter(@Advice.This Object builder) {
      OriginGuard5.addTo(builder);
    }
  }
}
