package io.tollgate.llm.internal;

import io.tollgate.limiter.Dimension;
import io.tollgate.llm.Headers;
import io.tollgate.llm.ProviderApi;
import io.tollgate.llm.Quota;
import io.tollgate.llm.RateLimitNotice;
import io.tollgate.llm.SyntheticResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Anthropic: token estimates use the documented approximation (cl100k_base × 1.2); a 429 carries
 * {@code retry-after} and {@code anthropic-ratelimit-{requests,tokens}-{limit,remaining,reset}}
 * (reset as an RFC 3339 time) and {@code {"type": "error", "error": {"type":
 * "rate_limit_error", "message"}}}; "no provider" is Anthropic's own 529 {@code overloaded_error}.
 */
public final class AnthropicProtocol extends BaseProtocol {

  static final String UNAVAILABLE = "Overloaded: no provider can take this request right now. (Tollgate)";

  public AnthropicProtocol(Clock clock) {
    super(ProviderApi.ANTHROPIC, clock);
  }

  @Override
  public SyntheticResponse syntheticRateLimit(RateLimitNotice notice) {
    Instant now = clock.instant();
    Headers.Builder headers = Headers.builder().add("content-type", SyntheticBodies.CONTENT_TYPE);
    long seconds = Durations.ceilSeconds(notice.retryAfter());
    if (!notice.neverFits()) {
      headers.add("retry-after", Long.toString(seconds));
    }
    quotaHeaders(headers, "requests", notice.requests(), now);
    quotaHeaders(headers, "tokens", notice.tokens(), now);
    if (notice.limitedBy() == Dimension.SPEND) {
      // Anthropic's own shape, the status and error type its SDKs read as a rate limit
      headers.add(SyntheticBodies.MARKER, "budget-spent");
      return SyntheticResponse.of(429, headers.build(), error("rate_limit_error",
          "insufficient_quota: " + SyntheticBodies.budgetSpent(notice, now) + " (Tollgate)"));
    }
    headers.add(SyntheticBodies.MARKER, "rate-limited");
    String figures = SyntheticBodies.figures(notice);
    String message = "This request would exceed the rate limit" + SyntheticBodies.forModel(notice) + " on "
        + SyntheticBodies.per(notice)
        + (figures.isEmpty() ? "" : ": " + figures) + "."
        + (notice.neverFits()
            ? " Reduce the prompt length or the maximum tokens requested."
            : " Please try again in " + SyntheticBodies.seconds(seconds) + ".")
        + " (Tollgate)";
    return SyntheticResponse.of(429, headers.build(), error("rate_limit_error", message));
  }

  @Override
  public SyntheticResponse syntheticUnavailable(Duration retryAfter, String message) {
    Headers.Builder headers = Headers.builder().add("content-type", SyntheticBodies.CONTENT_TYPE);
    if (retryAfter != null && !retryAfter.isNegative()) {
      headers.add("retry-after", Long.toString(Durations.ceilSeconds(retryAfter)));
    }
    headers.add(SyntheticBodies.MARKER, "no-provider");
    String text = message == null || message.isBlank() ? UNAVAILABLE : message;
    return SyntheticResponse.of(529, headers.build(), error("overloaded_error", text));
  }

  private static void quotaHeaders(Headers.Builder headers, String dimension, Optional<Quota> quota, Instant now) {
    String prefix = "anthropic-ratelimit-" + dimension + "-";
    quota.ifPresent(q -> {
      q.limit().ifPresent(v -> headers.add(prefix + "limit", Long.toString(v)));
      q.remaining().ifPresent(v -> headers.add(prefix + "remaining", Long.toString(v)));
      q.resetAfter().ifPresent(d -> headers.add(prefix + "reset", Durations.formatInstant(now.plus(d))));
    });
  }

  private static byte[] error(String type, String message) {
    return SyntheticBodies.json(g -> {
      g.writeStartObject();
      g.writeStringField("type", "error");
      g.writeObjectFieldStart("error");
      g.writeStringField("type", type);
      g.writeStringField("message", message);
      g.writeEndObject();
      g.writeEndObject();
    });
  }
}
