package io.tollgate.agent.instrumentation;

import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.matcher.ElementMatcher;

/**
 * The advice for one type of a client library: which type, and which advice class goes on which
 * of its methods. Matchers should be by name: they run for every class the JVM loads.
 *
 * <pre>{@code
 * public ElementMatcher<TypeDescription> typeMatcher() {
 *   return named("okhttp3.OkHttpClient$Builder");
 * }
 * public void transform(Advices advices) {
 *   advices.apply(isConstructor(), getClass().getName() + "$ConstructorAdvice");
 * }
 * }</pre>
 */
public interface TypeInstrumentation {

  ElementMatcher<TypeDescription> typeMatcher();

  void transform(Advices advices);

  /** Collects the advice of a {@link TypeInstrumentation}. */
  interface Advices {
    /**
     * Inlines the static advice methods of {@code adviceClassName} into the methods matched. The
     * advice must use {@code suppress = Throwable.class}: what it throws is counted in
     * {@link io.tollgate.agent.InternalFailures} and the method runs on unchanged.
     */
    void apply(ElementMatcher<? super MethodDescription> methods, String adviceClassName);
  }
}
