package io.tollgate.llm;

/** Where a {@link Usage} figure comes from. */
public enum UsageSource {
  /** The provider's own {@code usage}, complete. */
  REPORTED,
  /**
   * Counted by Tollgate: the output from the content it saw (deltas, message text) with the
   * model's tokenizer; the input from the provider when it told (Anthropic's {@code
   * message_start}), else from the request's estimate.
   */
  ESTIMATED,
  /** Nothing usable was seen (not an LLM response, cut before any content, or unreadable). */
  UNKNOWN
}
