package io.tollgate.agent.instrumentation;

import static net.bytebuddy.matcher.ElementMatchers.nameStartsWith;
import static net.bytebuddy.matcher.ElementMatchers.none;

import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.matcher.ElementMatcher;

/**
 * Types the agent never transforms: its own, ByteBuddy's (the app's copy included), other agents'
 * (their classes may be retransformed while they run), and JDK internals that lambdas and
 * reflection spin up.
 */
final class IgnoredTypes {

  private static final String[] PREFIXES = {
      "io.tollgate.",
      "net.bytebuddy.",
      "io.opentelemetry.javaagent.",
      "co.elastic.apm.",
      "datadog.",
      "com.datadog.",
      "com.newrelic.",
      "com.dynatrace.",
      "org.apache.skywalking.",
      "jdk.internal.reflect.",
      "sun.reflect.",
      "java.lang.invoke.",
  };

  private IgnoredTypes() {}

  /**
   * By name only: a name is known without reading the class file. (Synthetic types are left out
   * by {@link Installer} after a type matcher has matched, so that only those types are parsed.)
   */
  static ElementMatcher.Junction<TypeDescription> matcher() {
    ElementMatcher.Junction<TypeDescription> ignored = none();
    for (String prefix : PREFIXES) {
      ignored = ignored.or(nameStartsWith(prefix));
    }
    return ignored;
  }
}
