package io.tollgate.agent.instrumentation;

/** What the woven code hands a {@link Hook} that does not answer. */
public enum Passed {
  NOTHING,
  /** The instance the method runs on. */
  THIS,
  /** The method's first argument (an object). */
  FIRST_ARGUMENT
}
