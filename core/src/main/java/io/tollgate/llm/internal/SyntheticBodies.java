package io.tollgate.llm.internal;

import io.tollgate.llm.Headers;

import com.fasterxml.jackson.core.JsonGenerator;
import io.tollgate.limiter.Dimension;
import io.tollgate.llm.Quota;
import io.tollgate.llm.RateLimitNotice;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
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
