package io.tollgate.llm;

import java.time.Duration;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * What a provider's response tells the router: its class, when to retry, and its own limits.
 *
 * @param status the HTTP status
 * @param responseClass what the status (and error body, when given) means
 * @param retryAfter from {@code retry-after-ms} (preferred, as the OpenAI SDKs do) or {@code
 *     Retry-After} (seconds or an HTTP-date, from the clock's now); never negative
 * @param quotas the provider's rate-limit headers by kind
 * @param errorType the error body's {@code error.type}, when an error body was given
 * @param errorCode the error body's {@code error.code}, when given
 */
public record ProviderSignals(
    int status,
    ResponseClass responseClass,
    Optional<Duration> retryAfter,
    Map<QuotaKind, Quota> quotas,
    Optional<String> errorType,
    Optional<String> errorCode) {

  public ProviderSignals {
    Objects.requireNonNull(responseClass, "responseClass");
    Objects.requireNonNull(retryAfter, "retryAfter");
    Objects.requireNonNull(errorType, "errorType");
    Objects.requireNonNull(errorCode, "errorCode");
    Map<QuotaKind, Quota> copy = new EnumMap<>(QuotaKind.class);
    copy.putAll(quotas);
    quotas = Collections.unmodifiableMap(copy);
  }

  public Optional<Quota> quota(QuotaKind kind) {
    return Optional.ofNullable(quotas.get(kind));
  }

  /**
   * How long to wait before asking this provider again: {@link #retryAfter()} when given, else the
   * longest reset among the limits it says are exhausted; empty when it says neither.
   */
  public Optional<Duration> suggestedWait() {
    if (retryAfter.isPresent()) {
      return retryAfter;
    }
    Duration longest = null;
    for (Quota quota : quotas.values()) {
      if (quota.exhausted() && quota.resetAfter().isPresent()) {
        Duration reset = quota.resetAfter().get();
        longest = longest == null || reset.compareTo(longest) > 0 ? reset : longest;
      }
    }
    return Optional.ofNullable(longest);
  }

  /** The smallest remaining / limit over the limits it reported: for the health score. */
  public OptionalDouble tightestRemainingRatio() {
    OptionalDouble tightest = OptionalDouble.empty();
    for (Quota quota : quotas.values()) {
      OptionalDouble ratio = quota.remainingRatio();
      if (ratio.isPresent() && (tightest.isEmpty() || ratio.getAsDouble() < tightest.getAsDouble())) {
        tightest = ratio;
      }
    }
    return tightest;
  }
}
