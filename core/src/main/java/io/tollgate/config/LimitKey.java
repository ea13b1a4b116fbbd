package io.tollgate.config;

import io.tollgate.limiter.Dimension;
import java.time.Duration;

/** The limit keys a {@code limits:} section takes, each a dimension and a window. */
enum LimitKey {
  REQUESTS_PER_SECOND(Dimension.REQUESTS, "second", Duration.ofSeconds(1)),
  REQUESTS_PER_MINUTE(Dimension.REQUESTS, "minute", Duration.ofMinutes(1)),
  REQUESTS_PER_HOUR(Dimension.REQUESTS, "hour", Duration.ofHours(1)),
  REQUESTS_PER_DAY(Dimension.REQUESTS, "day", Duration.ofDays(1)),
  TOKENS_PER_SECOND(Dimension.TOKENS, "second", Duration.ofSeconds(1)),
  TOKENS_PER_MINUTE(Dimension.TOKENS, "minute", Duration.ofMinutes(1)),
  TOKENS_PER_HOUR(Dimension.TOKENS, "hour", Duration.ofHours(1)),
  TOKENS_PER_DAY(Dimension.TOKENS, "day", Duration.ofDays(1)),
  /** Micro-dollars per calendar day, UTC; written in dollars. */
  USD_PER_DAY(Dimension.SPEND, "day", Duration.ofDays(1)),
  /** Micro-dollars per calendar month, UTC; written in dollars. */
  USD_PER_MONTH(Dimension.SPEND, "month", Duration.ofDays(31));

  final Dimension dimension;
  final Duration window;
  /** {@code requests-per-minute}: how the configuration names it. */
  final String key;

  LimitKey(Dimension dimension, String unit, Duration window) {
    this.dimension = dimension;
    this.window = window;
    this.key = dimension.label() + "-per-" + unit;
  }
}
