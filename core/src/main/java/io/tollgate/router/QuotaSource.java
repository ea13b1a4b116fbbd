package io.tollgate.router;

/** Who reported how much of a provider's quota is left; the health score takes the lower of the two. */
public enum QuotaSource {
  /** Tollgate's own limiter: a decision's remaining / capacity for the provider's account. */
  LIMITER,
  /** The provider's own {@code x-ratelimit-remaining-*} (or {@code anthropic-ratelimit-*}) headers. */
  PROVIDER
}
