package io.tollgate.demo;

/**
 * What became of one call, told from the app's line and from which mock providers received it
 * (the app sends its call id as {@code X-Request-Id}, which a rerouted call keeps).
 */
enum Fate {
  /** Answered by the primary it was addressed to. */
  PRIMARY("primary ok"),
  /** Answered by the backup after the primary had refused or failed it. */
  FALLBACK_AFTER_ERROR("backup after primary error"),
  /** Answered by the backup without reaching the primary: Tollgate's limit on it, its Retry-After or its open breaker. */
  FALLBACK_SKIPPED_PRIMARY("backup, primary skipped"),
  /** A 429 that reached no provider: Tollgate's own refusal. */
  LIMITED("Tollgate 429"),
  /** A 503 that reached no provider: Tollgate found none that could take the call. */
  NO_PROVIDER("Tollgate 503"),
  /** A provider's own error response reached the app. */
  PROVIDER_ERROR("provider error"),
  /** No response at all (connection failure, timeout). */
  NO_RESPONSE("no response");

  final String label;

  Fate(String label) {
    this.label = label;
  }

  static Fate of(CallOutcome call, boolean reachedPrimary, boolean reachedBackup) {
    if (call.status() < 0) {
      return NO_RESPONSE;
    }
    if (call.status() == 200) {
      if (reachedBackup) {
        return reachedPrimary ? FALLBACK_AFTER_ERROR : FALLBACK_SKIPPED_PRIMARY;
      }
      return PRIMARY;
    }
    if (!reachedPrimary && !reachedBackup) {
      return call.status() == 429 ? LIMITED : call.status() == 503 ? NO_PROVIDER : PROVIDER_ERROR;
    }
    return PROVIDER_ERROR;
  }

  boolean answeredByBackup() {
    return this == FALLBACK_AFTER_ERROR || this == FALLBACK_SKIPPED_PRIMARY;
  }
}
