package io.tollgate.limiter;

/** What a limit counts: calls, LLM tokens (prompt plus output), or spend in micro-dollars. */
public enum Dimension {
  REQUESTS("requests"),
  TOKENS("tokens"),
  /** Spend, in micro-dollars (1 USD = 1,000,000), priced from the tokens a call uses. */
  SPEND("usd");

  private final String label;

  Dimension(String label) {
    this.label = label;
  }

  /** The word used in configuration keys and headers: {@code requests}, {@code tokens} or {@code usd}. */
  public String label() {
    return label;
  }
}
