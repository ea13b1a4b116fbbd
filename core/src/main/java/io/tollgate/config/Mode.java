package io.tollgate.config;

/** What Tollgate does with its decisions ({@code tollgate.mode}). */
public enum Mode {
  /** Decide and act: a call over a limit is rejected, waited or rerouted. */
  ENFORCE,
  /** Decide and report (spans, metrics), never block: to watch what enforcing would do. */
  SHADOW,
  /** Do nothing: every call passes untouched. */
  OFF
}
