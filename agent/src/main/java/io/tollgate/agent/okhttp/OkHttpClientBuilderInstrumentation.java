package io.tollgate.agent.okhttp;

import static net.bytebuddy.matcher.ElementMatchers.isConstructor;

import io.tollgate.agent.instrumentation.TypeInstrumentation;
import io.tollgate.agent.okhttp.helpers.TollgateInterceptor;
import java.util.List;
import net.bytebuddy.asm.Advice;
import okhttp3.OkHttpClient;

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
  public void transform(Advices advices) {
    advices.apply(isConstructor(), getClass().getName() + "$ConstructorAdvice");
  }

  /** Inlined at the end of each constructor of {@code OkHttpClient.Builder}. */
  public static final class ConstructorAdvice {
    private ConstructorAdvice() {}

    @Advice.OnMethodExit(suppress = Throwable.class)
    public static void exit(@Advice.This OkHttpClient.Builder builder) {
      TollgateInterceptor.addTo(builder);
    }
  }
}
