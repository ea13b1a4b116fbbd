package io.tollgate.limiter;

/** What a limit counts: calls, or LLM tokens (prompt plus output). */
public enum Dimension {
  REQUESTS("requests"),
  TOKENS("tokens");

  private final String label;

  Dimension(String label) {
    this.label = label;
  }

  /** The word used in configuration keys and headers: {@code requests} or {@code tokens}. */
  public String label() {
    return label;
  }
}
