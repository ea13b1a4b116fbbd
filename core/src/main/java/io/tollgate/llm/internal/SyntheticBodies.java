package io.tollgate.llm.internal;

import io.tollgate.llm.Headers;

import com.fasterxml.jackson.core.JsonGenerator;
import io.tollgate.limiter.Dimension;
import io.tollgate.llm.Prices;
import io.tollgate.llm.Quota;
import io.tollgate.llm.RateLimitNotice;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/** The pieces every synthetic response is made of: JSON bodies, and the words of its message. */
final class SyntheticBodies {

  static final String CONTENT_TYPE = "application/json";
  /** Marks a response as Tollgate's own, so whoever reads the app's logs can tell. */
  static final String MARKER = "x-tollgate";

  /** Writes a body with Jackson, which escapes whatever a model name holds. */
  interface Writer {
    void write(JsonGenerator g) throws IOException;
  }

  private SyntheticBodies() {}

  static byte[] json(Writer writer) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(256);
    try (JsonGenerator g = Json.WRITER.createGenerator(out)) {
      writer.write(g);
    } catch (IOException e) {
      throw new UncheckedIOException("writing to memory cannot fail", e);
    }
    return out.toByteArray();
  }

  /**
   * The refusing limit in words: {@code tokens per min (TPM)}, {@code the user's requests per day
   * (RPD)} when it is a user's ({@link RateLimitNotice#holder()}).
   */
  static String per(RateLimitNotice notice) {
    return notice.holder().map(holder -> "the " + holder + "'s ").orElse("")
        + per(notice.limitedBy(), notice.window());
  }

  /** {@code tokens per min (TPM)}, {@code requests per day (RPD)}, {@code tokens per 10s}. */
  static String per(Dimension dimension, Optional<Duration> window) {
    String what = dimension.label();
    if (window.isEmpty()) {
      return what;
    }
    Duration w = window.get();
    char initial = Character.toUpperCase(what.charAt(0));
    if (w.equals(Duration.ofMinutes(1))) {
      return what + " per min (" + initial + "PM)";
    }
    if (w.equals(Duration.ofDays(1))) {
      return what + " per day (" + initial + "PD)";
    }
    if (w.equals(Duration.ofHours(1))) {
      return what + " per hour";
    }
    if (w.equals(Duration.ofSeconds(1))) {
      return what + " per second";
    }
    return what + " per " + Durations.formatGo(w);
  }

  /** {@code Limit 30000, Remaining 120, Requested 1500}: the refusing limit's figures. */
  static String figures(RateLimitNotice notice) {
    StringBuilder s = new StringBuilder();
    Optional<Quota> limiting = notice.limiting();
    limiting.flatMap(q -> q.limit().isPresent() ? Optional.of(q.limit().getAsLong()) : Optional.empty())
        .ifPresent(limit -> s.append("Limit ").append(limit));
    limiting.flatMap(q -> q.remaining().isPresent() ? Optional.of(q.remaining().getAsLong()) : Optional.empty())
        .ifPresent(remaining -> s.append(s.length() == 0 ? "" : ", ").append("Remaining ").append(remaining));
    if (notice.limitedBy() == Dimension.TOKENS && notice.requestedTokens().isPresent()) {
      s.append(s.length() == 0 ? "" : ", ").append("Requested ").append(notice.requestedTokens().getAsLong());
    }
    return s.toString();
  }

  /**
   * A spent budget in words: {@code the spend budget of 5 USD per day (UTC) is used up (Remaining
   * 0.0012 USD, Requested 0.03 USD); it starts again at 2026-12-04T00:00:00Z.}
   */
  static String budgetSpent(RateLimitNotice notice, Instant now) {
    Optional<Quota> budget = notice.spend();
    String period = notice.window().filter(w -> w.equals(Duration.ofDays(1))).isPresent()
        ? "per day (UTC)" : "per month (UTC)";
    String limit = budget.flatMap(q -> q.limit().isPresent() ? Optional.of(usd(q.limit().getAsLong()))
        : Optional.empty()).map(s -> " of " + s).orElse("");
    String whose = notice.holder().map(holder -> holder + "'s ").orElse("");
    String requested = notice.requestedSpend().isPresent()
        ? usd(notice.requestedSpend().getAsLong()) : "unknown";
    if (notice.neverFits()) {
      return "the estimated cost of this request" + forModel(notice) + " (" + requested
          + ") is more than the " + whose + "whole spend budget " + period
          + "; reduce the prompt or the maximum tokens requested.";
    }
    String remaining = budget.flatMap(q -> q.remaining().isPresent()
        ? Optional.of(usd(q.remaining().getAsLong())) : Optional.empty()).orElse("unknown");
    return "the " + whose + "spend budget" + limit + " " + period + " is used up (Remaining " + remaining
        + ", Requested " + requested + "); it starts again at " + startsAgain(now, notice) + ".";
  }

  /**
   * When a spent budget starts again: a day or month begins on a whole second, and the limiter's
   * clock and this one differ by less than half of one.
   */
  private static Instant startsAgain(Instant now, RateLimitNotice notice) {
    long millis = now.plus(notice.retryAfter()).toEpochMilli();
    return Instant.ofEpochSecond(Math.floorDiv(millis + 500, 1000));
  }

  /** Micro-dollars as dollars: {@code 0.0012 USD}. */
  static String usd(long microUsd) {
    return Prices.toDollars(microUsd).toPlainString() + " USD";
  }

  static String forModel(RateLimitNotice notice) {
    return notice.model().map(m -> " for " + m).orElse("");
  }

  /** {@code retry-after} in whole seconds (rounded up) and {@code retry-after-ms}, as OpenAI sends both. */
  static Headers.Builder retryAfter(Headers.Builder headers, Duration wait) {
    return headers.add("retry-after", Long.toString(Durations.ceilSeconds(wait)))
        .add("retry-after-ms", Long.toString(Durations.ceilMillis(wait)));
  }

  static String seconds(long n) {
    return n == 1 ? "1 second" : n + " seconds";
  }
}
