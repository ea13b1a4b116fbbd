package io.tollgate.llm;

/** What a provider's rate-limit headers count. */
public enum QuotaKind {
  /** {@code x-ratelimit-*-requests}, {@code anthropic-ratelimit-requests-*}. */
  REQUESTS,
  /** {@code x-ratelimit-*-tokens}, {@code anthropic-ratelimit-tokens-*}. */
  TOKENS,
  /** {@code anthropic-ratelimit-input-tokens-*}. */
  INPUT_TOKENS,
  /** {@code anthropic-ratelimit-output-tokens-*}. */
  OUTPUT_TOKENS
}
