package io.tollgate.agent.okhttp;

import static net.bytebuddy.matcher.ElementMatchers.isConstructor;

import io.tollgate.agent.instrumentation.TypeInstrumentation;
import io.tollgate.agent.instrumentation.TypeTransformer;
import java.util.List;
import io.tollgate.agent.okhttp.helpers.TollgateInterceptor;
import net.bytebuddy.asm.Advice;

/**
 * Every {@code OkHttpClient.Builder} (and so every client, {@code new OkHttpClient()} included)
 * starts with Tollgate's interceptor first in its application interceptors.
 */
public final class OkHttpClientBuilderInstrumentation implements TypeInstrumentation {

  @Override
  public List<String> typeNames() {
    return List.of("okhttp3.OkHttpClient$Builder");
  }

  @Override
  public void transform(TypeTransformer transformer) {
    transformer.applyAdviceToMethod(isConstructor(), getClass().getName() + "$ConstructorAdvice");
  }

  /** At each return of a builder's constructors. */
  public static final class ConstructorAdvice {
    private ConstructorAdvice() {}

    @Advice.OnMethodExit(suppress = Throwable.class)
    public static void exit(@Advice.This Object builder) {
      TollgateInterceptor.addTo(builder);
    }
  }
}
