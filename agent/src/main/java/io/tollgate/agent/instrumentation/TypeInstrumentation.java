package io.tollgate.agent.instrumentation;

import java.util.List;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.matcher.ElementMatcher;

/**
 * The advice for some types of a client library: which types, by name, and which advice class
 * goes on which of their methods. Names only: the agent decides from the name alone, for every
 * class the JVM loads, whether a class is one of its own, and it knows those names before it has
 * read its configuration (see {@link AgentTransformer}).
 *
 * <pre>{@code
 * public List<String> typeNames() {
 *   return List.of("okhttp3.OkHttpClient$Builder");
 * }
 * public void transform(Advices advices) {
 *   advices.apply(isConstructor(), getClass().getName() + "$ConstructorAdvice");
 * }
 * }</pre>
 */
public interface TypeInstrumentation {

  /** The binary names of the types ({@code okhttp3.OkHttpClient$Builder}). */
  List<String> typeNames();

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
