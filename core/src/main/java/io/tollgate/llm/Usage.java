package io.tollgate.llm;

import java.util.Objects;
import java.util.Optional;

/**
 * Tokens a call used, normalised across providers.
 *
 * <p>{@code inputTokens} counts every input token the model processed, cached or not: OpenAI's
 * {@code prompt_tokens} / {@code input_tokens} already do; for Anthropic it is {@code
 * input_tokens + cache_creation_input_tokens + cache_read_input_tokens}. The cache figures are the
 * part of the input read from (OpenAI {@code cached_tokens}, Anthropic {@code
 * cache_read_input_tokens}) or written to (Anthropic {@code cache_creation_input_tokens}) the
 * provider's prompt cache.
 *
 * @param inputTokens all input tokens, cache included
 * @param outputTokens output tokens, reasoning included
 * @param cacheReadTokens input tokens served from the prompt cache
 * @param cacheWriteTokens input tokens written to the prompt cache
 * @param source reported by the provider, estimated by Tollgate, or unknown
 * @param model the response's {@code model}, when seen
 */
public record Usage(
    long inputTokens,
    long outputTokens,
    long cacheReadTokens,
    long cacheWriteTokens,
    UsageSource source,
    Optional<String> model) {

  private static final Usage UNKNOWN = new Usage(0, 0, 0, 0, UsageSource.UNKNOWN, Optional.empty());

  /** Negative figures are refused; figures beyond {@link TokenEstimate#MAX_TOKENS} are clamped to it. */
  public Usage {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(model, "model");
    if (inputTokens < 0 || outputTokens < 0 || cacheReadTokens < 0 || cacheWriteTokens < 0) {
      throw new IllegalArgumentException("token counts must be >= 0");
    }
    inputTokens = TokenEstimate.clamp(inputTokens);
    outputTokens = TokenEstimate.clamp(outputTokens);
    cacheReadTokens = TokenEstimate.clamp(cacheReadTokens);
    cacheWriteTokens = TokenEstimate.clamp(cacheWriteTokens);
  }

  public static Usage reported(long input, long output, long cacheRead, long cacheWrite, Optional<String> model) {
    return new Usage(input, output, cacheRead, cacheWrite, UsageSource.REPORTED, model);
  }

  public static Usage estimated(long input, long output, long cacheRead, long cacheWrite, Optional<String> model) {
    return new Usage(input, output, cacheRead, cacheWrite, UsageSource.ESTIMATED, model);
  }

  public static Usage unknown() {
    return UNKNOWN;
  }

  public static Usage unknown(Optional<String> model) {
    return model.isEmpty() ? UNKNOWN : new Usage(0, 0, 0, 0, UsageSource.UNKNOWN, model);
  }

  /** Input plus output, at most {@link TokenEstimate#MAX_TOKENS}: what a settle charges. */
  public long totalTokens() {
    return Math.min(inputTokens + outputTokens, TokenEstimate.MAX_TOKENS);
  }

  /** True unless the source is {@link UsageSource#UNKNOWN}. */
  public boolean known() {
    return source != UsageSource.UNKNOWN;
  }
}
