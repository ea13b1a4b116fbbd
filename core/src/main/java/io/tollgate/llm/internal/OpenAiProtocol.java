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
 * OpenAI: a 429 with {@code retry-after}, {@code retry-after-ms} and the six {@code
 * x-ratelimit-*} headers (resets in Go's duration format), and {@code {"error": {"message",
 * "type": "requests" | "tokens", "param": null, "code": "rate_limit_exceeded"}}}; a 503 with
 * {@code "type": "server_error"} when no provider can answer.
 */
public final class OpenAiProtocol extends BaseProtocol {

  static final String UNAVAILABLE = "No provider can take this request right now. Please try again later. (Tollgate)";

  public OpenAiProtocol(Clock clock) {
    super(ProviderApi.OPENAI, clock);
  }

  @Override
  public SyntheticResponse syntheticRateLimit(RateLimitNotice notice) {
    Headers.Builder headers = Headers.builder().add("content-type", SyntheticBodies.CONTENT_TYPE);
    if (!notice.neverFits()) {
      SyntheticBodies.retryAfter(headers, notice.retryAfter());
    }
    rateLimitHeaders(headers, notice, d -> Durations.formatGo(d));
    if (notice.limitedBy() == Dimension.SPEND) {
      headers.add(SyntheticBodies.MARKER, "budget-spent");
      return SyntheticResponse.of(429, headers.build(), insufficientQuota(notice, clock.instant()));
    }
    headers.add(SyntheticBodies.MARKER, "rate-limited");
    String message = message(notice);
    byte[] body = SyntheticBodies.json(g -> {
      g.writeStartObject();
      g.writeObjectFieldStart("error");
      g.writeStringField("message", message);
      g.writeStringField("type", notice.limitedBy().label());
      g.writeNullField("param");
      g.writeStringField("code", "rate_limit_exceeded");
      g.writeEndObject();
      g.writeEndObject();
    });
    return SyntheticResponse.of(429, headers.build(), body);
  }

  /** OpenAI's body for a spent budget: type and code {@code insufficient_quota}. */
  static byte[] insufficientQuota(RateLimitNotice notice, Instant now) {
    String message = "You exceeded your current quota: " + SyntheticBodies.budgetSpent(notice, now)
        + " (Tollgate)";
    return SyntheticBodies.json(g -> {
      g.writeStartObject();
      g.writeObjectFieldStart("error");
      g.writeStringField("message", message);
      g.writeStringField("type", "insufficient_quota");
      g.writeNullField("param");
      g.writeStringField("code", "insufficient_quota");
      g.writeEndObject();
      g.writeEndObject();
    });
  }

  @Override
  public SyntheticResponse syntheticUnavailable(Duration retryAfter, String message) {
    Headers.Builder headers = Headers.builder().add("content-type", SyntheticBodies.CONTENT_TYPE);
    if (retryAfter != null && !retryAfter.isNegative()) {
      SyntheticBodies.retryAfter(headers, retryAfter);
    }
    headers.add(SyntheticBodies.MARKER, "no-provider");
    String text = message == null || message.isBlank() ? UNAVAILABLE : message;
    byte[] body = SyntheticBodies.json(g -> {
      g.writeStartObject();
      g.writeObjectFieldStart("error");
      g.writeStringField("message", text);
      g.writeStringField("type", "server_error");
      g.writeNullField("param");
      g.writeNullField("code");
      g.writeEndObject();
      g.writeEndObject();
    });
    return SyntheticResponse.of(503, headers.build(), body);
  }

  /** OpenAI's header order: limits, remainings, resets; each for requests, then tokens. */
  static void rateLimitHeaders(Headers.Builder headers, RateLimitNotice notice,
      java.util.function.Function<Duration, String> resetFormat) {
    Optional<Quota> requests = notice.requests();
    Optional<Quota> tokens = notice.tokens();
    requests.ifPresent(q -> q.limit().ifPresent(v -> headers.add("x-ratelimit-limit-requests", Long.toString(v))));
    tokens.ifPresent(q -> q.limit().ifPresent(v -> headers.add("x-ratelimit-limit-tokens", Long.toString(v))));
    requests.ifPresent(q -> q.remaining().ifPresent(v -> headers.add("x-ratelimit-remaining-requests", Long.toString(v))));
    tokens.ifPresent(q -> q.remaining().ifPresent(v -> headers.add("x-ratelimit-remaining-tokens", Long.toString(v))));
    requests.flatMap(Quota::resetAfter).ifPresent(d -> headers.add("x-ratelimit-reset-requests", resetFormat.apply(d)));
    tokens.flatMap(Quota::resetAfter).ifPresent(d -> headers.add("x-ratelimit-reset-tokens", resetFormat.apply(d)));
  }

  private static String message(RateLimitNotice notice) {
    String figures = SyntheticBodies.figures(notice);
    String head = (notice.neverFits() ? "Request too large" : "Rate limit reached")
        + SyntheticBodies.forModel(notice) + " on "
        + SyntheticBodies.per(notice)
        + (figures.isEmpty() ? "" : ": " + figures) + ".";
    String tail = notice.neverFits()
        ? " The input or output tokens must be reduced in order to run successfully."
        : " Please try again in " + Durations.formatGo(notice.retryAfter()) + ".";
    return head + tail + " (Tollgate)";
  }
}
