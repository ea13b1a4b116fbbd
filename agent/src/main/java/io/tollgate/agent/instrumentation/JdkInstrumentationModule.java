package io.tollgate.agent.instrumentation;

import java.util.List;
import net.bytebuddy.asm.Advice;

/**
 * A module whose types are the JDK's own: defined by the platform loader, in a named module that
 * sees nothing of the agent jar. Its advice cannot name an agent class; it reaches the agent
 * through the values {@link #adviceMapping()} binds to its own annotations, and nothing is injected
 * (docs/agent.md, "JDK HttpClient").
 */
public interface JdkInstrumentationModule extends InstrumentationModule {

  /**
   * The advice's annotations and the constants they stand for.
   *
   * @throws IllegalStateException when the agent cannot be reached from the JDK's classes: the
   *     module is then left out
   */
  Advice.WithCustomMapping adviceMapping();

  /** Nothing is injected into the JDK's loaders. */
  @Override
  default List<String> helperClassNames() {
    return List.of();
  }
}
