package io.tollgate.agent;

import java.io.PrintStream;

/**
 * The agent's few words to the operator: single lines on stderr starting with {@code [tollgate]},
 * so they are easy to grep and never interleave with the app's multi-line output. The agent does
 * not use the app's logging: it must not load or configure anything of the app's.
 */
final class AgentLog {

  static final String PREFIX = "[tollgate] ";
  /** {@code -Dtollgate.debug=true} adds stack traces to failures. */
  static final boolean DEBUG = Boolean.getBoolean("tollgate.debug");

  private AgentLog() {}

  static void line(String message) {
    PrintStream err = System.err;
    err.println(PREFIX + oneLine(message));
  }

  static void failure(String message, Throwable error) {
    line(message);
    if (DEBUG && error != null) {
      error.printStackTrace(System.err);
    }
  }

  /** Folds a multi-line message (a YAML error with its snippet) onto one line. */
  static String oneLine(String message) {
    return String.valueOf(message).strip().replaceAll("\\s*\\R\\s*", " | ");
  }
}
