package io.tollgate.testkit.llm;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Anthropic's error body {@code {"type":"error","error":{"type","message"}}}, its error type per
 * status, and its {@code anthropic-ratelimit-*} headers (resets as RFC 3339 instants, not durations).
 */
final class AnthropicShapes {

    private AnthropicShapes() {
    }

    static Reply error(int status, String message) {
        ObjectNode error = Json.object();
        error.put("type", errorType(status));
        error.put("message", message);
        ObjectNode body = Json.object();
        body.put("type", "error");
        body.set("error", error);
        return Reply.json(status, body);
    }

    static Reply failure(int status) {
        String message = switch (status) {
            case 500 -> "Internal server error";
            case 529 -> "Overloaded";
            default -> "Scripted HTTP " + status + " from the mock server.";
        };
        return error(status, message);
    }

    static Reply rateLimited(ApiCall call, LimitedDimension dimension, Duration retryAfter) {
        RateLimits limits = call.settings().rateLimits();
        String window = dimension == LimitedDimension.REQUESTS
                ? limits.requestLimit() + " requests per minute"
                : limits.tokenLimit() + " input tokens per minute";
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("retry-after", String.valueOf(RetryAfter.seconds(retryAfter)));
        headers.putAll(rateLimitHeaders(call, limits.exhausted(dimension, retryAfter)));
        return error(429, "This request would exceed the rate limit for your organization (org-mock) of " + window
                + ". Please try again later.").withHeaders(headers);
    }

    static Map<String, String> rateLimitHeaders(ApiCall call, RateLimits limits) {
        Instant now = call.request().arrivedAt();
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("anthropic-ratelimit-requests-limit", String.valueOf(limits.requestLimit()));
        headers.put("anthropic-ratelimit-requests-remaining", String.valueOf(limits.remainingRequests()));
        headers.put("anthropic-ratelimit-requests-reset", resetInstant(now, limits.requestsReset()));
        headers.put("anthropic-ratelimit-tokens-limit", String.valueOf(limits.tokenLimit()));
        headers.put("anthropic-ratelimit-tokens-remaining", String.valueOf(limits.remainingTokens()));
        headers.put("anthropic-ratelimit-tokens-reset", resetInstant(now, limits.tokensReset()));
        return headers;
    }

    private static String errorType(int status) {
        return switch (status) {
            case 400 -> "invalid_request_error";
            case 401 -> "authentication_error";
            case 403 -> "permission_error";
            case 404 -> "not_found_error";
            case 413 -> "request_too_large";
            case 429 -> "rate_limit_error";
            case 529 -> "overloaded_error";
            default -> status >= 500 ? "api_error" : "invalid_request_error";
        };
    }

    /** Rounded up to the second, so a client waiting until then is never early. */
    private static String resetInstant(Instant now, Duration reset) {
        Instant at = now.plus(reset);
        Instant seconds = at.truncatedTo(ChronoUnit.SECONDS);
        return (seconds.equals(at) ? seconds : seconds.plusSeconds(1)).toString();
    }
}
