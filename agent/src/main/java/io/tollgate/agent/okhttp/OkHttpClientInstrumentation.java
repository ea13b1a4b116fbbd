package io.tollgate.agent.okhttp;

import static net.bytebuddy.matcher.ElementMatchers.isConstructor;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;

import io.tollgate.agent.instrumentation.TypeInstrumentation;
import io.tollgate.agent.instrumentation.TypeTransformer;
import io.tollgate.agent.okhttp.helpers.OriginGuard;
import java.util.List;
import net.bytebuddy.asm.Advice;

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
  public void transform(TypeTransformer transformer) {
    // by name: nothing of OkHttp is loaded into the agent's view while its classes load
    transformer.applyAdviceToMethod(
        isConstructor().and(takesArgument(0, named("okhttp3.OkHttpClient$Builder"))),
        getClass().getName() + "$ConstructorAdvice");
  }

  /** At the start of {@code OkHttpClient(Builder)}, before the client copies the builder. */
  public static final class ConstructorAdvice {
    private ConstructorAdvice() {}

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter(@Advice.Argument(0) Object builder) {
      OriginGuard.addTo(builder);
    }
  }
}
