package io.tollgate.agent.okhttp;

import static net.bytebuddy.matcher.ElementMatchers.isConstructor;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;

import io.tollgate.agent.instrumentation.TypeInstrumentation;
import io.tollgate.agent.okhttp.helpers.FallbackCredentials;
import java.util.List;
import net.bytebuddy.asm.Advice;
import okhttp3.OkHttpClient;

/**
 * Every {@code OkHttpClient} made from a builder ({@code build()}, {@code new OkHttpClient()})
 * ends its network interceptors with Tollgate's {@link FallbackCredentials}: after the app's and
 * its SDK's own, which it must follow.
 */
public final class OkHttpClientInstrumentation implements TypeInstrumentation {

  @Override
  public List<String> typeNames() {
    return List.of("okhttp3.OkHttpClient");
  }

  @Override
  public void transform(Advices advices) {
    // by name: the matcher must not load OkHttp's classes into the agent's view while they load
    advices.apply(isConstructor().and(takesArgument(0, named("okhttp3.OkHttpClient$Builder"))),
        getClass().getName() + "$ConstructorAdvice");
  }

  /** Inlined at the start of {@code OkHttpClient(Builder)}, before it copies the builder's lists. */
  public static final class ConstructorAdvice {
    private ConstructorAdvice() {}

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter(@Advice.Argument(0) OkHttpClient.Builder builder) {
      FallbackCredentials.addTo(builder);
    }
  }
}
