package io.tollgate.llm;

/** How a {@link TokenEstimate} was arrived at. */
public enum EstimateBasis {
  /** Prompt counted with the model's own tokenizer plus the documented per-message overheads. */
  TOKENIZER,
  /** Counted with a stand-in tokenizer and scaled (Anthropic: cl100k_base × 1.2, rounded up). */
  APPROXIMATION,
  /**
   * The body was not tokenized (not JSON, or larger than {@code tokens.max-buffered-body}): body
   * bytes / 4, rounded up, plus the output cap.
   */
  BODY_SIZE,
  /** The endpoint consumes no tokens (models, files, count_tokens, ...): zero. */
  NONE
}
