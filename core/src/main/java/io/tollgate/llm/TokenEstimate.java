package io.tollgate.llm;

/**
 * The tokens a request is expected to cost before it is sent: what is reserved.
 *
 * <p>Every figure is clamped to 0..{@link #MAX_TOKENS}, so that no request field (a {@code
 * max_tokens} of {@code Long.MAX_VALUE}, {@code n} times a huge cap) can overflow a sum or reach a
 * limiter as a cost it cannot represent: such a call is one that never fits.
 *
 * @param promptTokens the prompt (messages, system, tools) in tokens
 * @param outputTokens the output cap the request names (× {@code n} choices), else the default
 * @param basis how the figure was arrived at
 * @param encoding the tokenizer used ({@code o200k_base}, {@code cl100k_base}), empty when none
 */
public record TokenEstimate(long promptTokens, long outputTokens, EstimateBasis basis, String encoding) {

  /**
   * The most tokens any estimate or usage is taken to be. More than any limit can hold ({@code
   * Limit} keeps capacity × window below 2^50), so a call costing it never fits a token limit; and
   * a few such figures add up without overflow.
   */
  public static final long MAX_TOKENS = 1L << 50;

  public TokenEstimate {
    promptTokens = clamp(promptTokens);
    outputTokens = clamp(outputTokens);
    encoding = encoding == null ? "" : encoding;
  }

  /** {@code tokens} within 0..{@link #MAX_TOKENS}: a negative figure is 0, an absurd one the maximum. */
  public static long clamp(long tokens) {
    return Math.max(0, Math.min(tokens, MAX_TOKENS));
  }

  /**
   * The bytes of a body taken for one prompt token when the body is not tokenized: a token of
   * English text in the current OpenAI encodings is about four characters, so this is close for
   * prose, high for JSON punctuation and media (base64 is billed by the image, not its bytes) and
   * low for text of three-byte characters (CJK); the usage settles the difference.
   */
  public static final int BYTES_PER_TOKEN = 4;

  /**
   * The estimate for a body that is not tokenized (not JSON, larger than {@code
   * tokens.max-buffered-body}, or never seen): its bytes / {@value #BYTES_PER_TOKEN}, rounded up,
   * as the prompt (at most {@link #MAX_TOKENS}), basis {@link EstimateBasis#BODY_SIZE}.
   */
  public static TokenEstimate fromBodySize(long bodyBytes, long outputTokens) {
    return new TokenEstimate(promptTokensOfSize(bodyBytes), outputTokens, EstimateBasis.BODY_SIZE, "");
  }

  /** ⌈{@code bodyBytes} / {@value #BYTES_PER_TOKEN}⌉, within 0..{@link #MAX_TOKENS}. */
  public static long promptTokensOfSize(long bodyBytes) {
    return (clamp(bodyBytes) + BYTES_PER_TOKEN - 1) / BYTES_PER_TOKEN;
  }

  /** Prompt plus output, at most {@link #MAX_TOKENS}: the tokens to reserve. */
  public long totalTokens() {
    return Math.min(promptTokens + outputTokens, MAX_TOKENS);
  }

  /** True when the body could not be read and the estimate is a guess from its size. */
  public boolean fromBodySize() {
    return basis == EstimateBasis.BODY_SIZE;
  }
}
