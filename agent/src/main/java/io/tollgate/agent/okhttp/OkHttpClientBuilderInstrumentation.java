package io.tollgate.agent.okhttp;

import static net.bytebuddy.matcher.ElementMatchers.isConstructor;
import static net.bytebuddy.matcher.ElementMatchers.named;

import io.tollgate.agent.instrumentation.TypeInstrumentation;
import io.tollgate.agent.okhttp.helpers.TollgateInterceptor;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.matcher.ElementMatcher;
import okhttp3.OkHttpClient;

/**
 * Every {@code OkHttpClient.Builder} (and so every client, {@code new OkHttpClient()} included)
 * starts with Tollgate's interceptor first in its application interceptors.
 */
public final class OkHttpClientBuilderInstrumentation implements TypeInstrumentation {

  @Override
  public ElementMatcher<TypeDescription> typeMatcher() {
    return named("okhttp3.OkHttpClient$Builder");
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
