package io.tollgate.agent.instrumentation;

import io.tollgate.agent.AgentGates;
import io.tollgate.gate.Gate;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.function.Predicate;

/**
 * Whether a class loader sees the agent's own classes (its entry points and its relocated core) as
 * the agent loaded them: the hooks and helpers defined there link against them. A loader that does
 * not find them through its parents (an OSGi bundle, another agent's loader) is left alone: its
 * classes are not transformed at all. A loader with a Tollgate core of its own passes: the agent's
 * core is relocated, so the names checked are the agent's alone.
 */
final class AgentVisibility implements Predicate<ClassLoader> {

  private static final String[] OTHER_AGENTS = {
      "io.opentelemetry.javaagent.", "co.elastic.apm.", "datadog.", "com.datadog.", "com.newrelic.",
      "com.dynatrace.", "org.apache.skywalking."};

  private final Map<ClassLoader, Boolean> seen = Collections.synchronizedMap(new WeakHashMap<>());

  @Override
  public boolean test(ClassLoader loader) {
    if (loader == null) {
      return false; // the boot loader: nothing of ours is there
    }
    Boolean known = seen.get(loader);
    if (known == null) {
      known = check(loader);
      seen.put(loader, known);
    }
    return known;
  }

  private static boolean check(ClassLoader loader) {
    String type = loader.getClass().getName();
    for (String prefix : OTHER_AGENTS) {
      if (type.startsWith(prefix)) {
        return false;
      }
    }
    try {
      return Class.forName(AgentGates.class.getName(), false, loader) == AgentGates.class
          && Class.forName(Gate.class.getName(), false, loader) == Gate.class;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }
}
