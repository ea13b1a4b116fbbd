package io.tollgate.agent.instrumentation;

import java.util.List;

/**
 * A module whose types are the JDK's own: defined by the platform or boot loader, in a named module
 * that sees nothing of the agent jar. Its woven code cannot name an agent class; it reaches the
 * agent through {@link Hook#bridge} handles only, and nothing is injected (docs/agent.md, "JDK
 * HttpClient").
 */
public interface JdkInstrumentationModule extends InstrumentationModule {

  /**
   * Checks that the system class loader resolves the module's bridge class to the agent's own, as
   * its {@link Hook#bridge} handles need.
   *
   * @throws IllegalStateException when the agent cannot be reached from the JDK's classes: the
   *     module is then left out
   */
  void checkBridge();

  /** Nothing is injected into the JDK's loaders. */
  @Override
  default List<String> helperClassNames() {
    return List.of();
  }
}
