package io.tollgate.llm;

/**
 * What a provider's answer means for the router. See docs/llm-protocol.md for the table.
 */
public enum ResponseClass {
  /** 1xx-3xx. */
  SUCCESS(false, false),
  /** 429: the account's rate limit; honour {@code Retry-After}. */
  RATE_LIMITED(true, true),
  /** The account has no credit or quota left (OpenAI 429 {@code insufficient_quota}, 402). */
  QUOTA_EXHAUSTED(true, true),
  /** The provider is overloaded for everyone (503, Anthropic 529 {@code overloaded_error}). */
  OVERLOADED(true, true),
  /** Any other 5xx, and 408. */
  SERVER_ERROR(true, true),
  /** 401 / 403: this provider's credential; a fallback brings its own. */
  AUTH_ERROR(false, true),
  /** The prompt does not fit the model's context window; only a larger model helps. */
  CONTEXT_LENGTH_ERROR(false, true),
  /** Any other 4xx: the request itself is wrong and would be wrong anywhere. */
  CLIENT_ERROR(false, false);

  private final boolean providerFailure;
  private final boolean mayFallBack;

  ResponseClass(boolean providerFailure, boolean mayFallBack) {
    this.providerFailure = providerFailure;
    this.mayFallBack = mayFallBack;
  }

  /** True when the provider failed the call: it counts against its circuit breaker and health. */
  public boolean providerFailure() {
    return providerFailure;
  }

  /** True when another provider could answer the same request differently. */
  public boolean mayFallBack() {
    return mayFallBack;
  }
}
