package io.tollgate.agent.instrumentation;

import java.util.List;

/**
 * The hooks for some types of a client library: which types, by name, and which {@link Hook} is
 * called where in which of their methods. Names only: the agent decides from the name alone, for
 * every class the JVM loads, whether a class is one of its own, and it knows those names before it
 * has read its configuration (see {@link AgentTransformer}).
 *
 * <pre>{@code
 * public List<String> typeNames() {
 *   return List.of("okhttp3.OkHttpClient$Builder");
 * }
 *
 * public void transform(Hooks hooks) {
 *   hooks.atReturn(MethodFilter.constructors(), Passed.THIS,
 *       Hook.method("io.tollgate.agent.okhttp.helpers.TollgateInterceptor", "addTo"));
 * }
 * }</pre>
 */
public interface TypeInstrumentation {

  /** The binary names of the types ({@code okhttp3.OkHttpClient$Builder}). */
  List<String> typeNames();

  void transform(Hooks hooks);

  /**
   * Collects the hooks of a {@link TypeInstrumentation}. A hook called at the start of a method
   * runs in a try block of its own: what it throws is counted in
   * {@link io.tollgate.agent.InternalFailures} and the method runs on unchanged. A hook called
   * at a return must not throw.
   */
  interface Hooks {

    /**
     * At the start of the methods matched, {@code hook(this, every argument)}: null lets the
     * method run; anything else is returned in its place, or thrown when it is a
     * {@code Throwable}.
     */
    void answer(MethodFilter methods, Hook hook);

    /** At the start of the methods matched. */
    void atEnter(MethodFilter methods, Passed passed, Hook hook);

    /** Before each normal return of the methods matched. */
    void atReturn(MethodFilter methods, Passed passed, Hook hook);

    /** Before each normal return of the methods matched, and as they throw. */
    void atExit(MethodFilter methods, Passed passed, Hook hook);
  }
}
