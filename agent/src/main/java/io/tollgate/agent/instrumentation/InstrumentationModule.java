package io.tollgate.agent.instrumentation;

import java.util.List;

/**
 * Everything the agent does to one client library: its type instrumentations and the helper
 * classes their hooks call. Helpers touch the library's types, so they are injected into the
 * class loader that loaded the library (see docs/agent.md, "Class loaders"); the rest of the agent
 * stays in the agent's own loader and must never name a helper class.
 */
public interface InstrumentationModule {

  /** A short name for logs: {@code okhttp}. */
  String name();

  List<TypeInstrumentation> typeInstrumentations();

  /**
   * The binary names of the helper classes, each defined in the library's class loader before any
   * hook can run there. Nested and anonymous classes must be listed too; a helper's superclass
   * must not be another helper.
   */
  List<String> helperClassNames();
}
