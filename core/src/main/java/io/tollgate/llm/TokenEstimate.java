package io.tollgate.llm;

/**
 * The tokens a request is expected to cost before it is sent: what is reserved.
 *
 * @param promptTokens the prompt (messages, system, tools) in tokens
 * @param outputTokens the output cap the request names (× {@code n} choices), else the default
 * @param basis how the figure was arrived at
 * @param encoding the tokenizer used ({@code o200k_base}, {@code cl100k_base}), empty when none
 */
public record TokenEstimate(long promptTokens, long outputTokens, EstimateBasis basis, String encoding) {

  public TokenEstimate {
    if (promptTokens < 0 || outputTokens < 0) {
      throw new IllegalArgumentException(
          "token counts must be >= 0, was " + promptTokens + " and " + outputTokens);
    }
    encoding = encoding == null ? "" : encoding;
  }

  /**
   * The estimate for a body that is not read as JSON (not JSON, or never seen): its bytes / 4,
   * rounded up, as the prompt, basis {@link EstimateBasis#BODY_SIZE}.
   */
  public static TokenEstimate fromBodySize(long bodyBytes, long outputTokens) {
    return new TokenEstimate((Math.max(0, bodyBytes) + 3) / 4, outputTokens,
        EstimateBasis.BODY_SIZE, "");
  }

  /** Prompt plus output: the tokens to reserve. */
  public long totalTokens() {
    return promptTokens + outputTokens;
  }

  /** True when the body could not be read and the estimate is a guess from its size. */
  public boolean fromBodySize() {
    return basis == EstimateBasis.BODY_SIZE;
  }
}
