package io.tollgate.testkit.llm;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The parts OpenAI's APIs share: bearer auth, the {@code {"error":{message,type,param,code}}}
 * body, {@code x-ratelimit-*} headers and {@code retry-after(-ms)}. Azure OpenAI reuses the headers.
 */
final class OpenAiShapes {

    private OpenAiShapes() {
    }

    /** Checks {@code Authorization: Bearer <key>} only when the test configured a key. */
    static Optional<Reply> checkBearerKey(ApiCall call) {
        Optional<String> expected = call.settings().expectedApiKey();
        if (expected.isEmpty()) {
            return Optional.empty();
        }
        String authorization = call.request().header("authorization");
        if (authorization == null || !authorization.startsWith("Bearer ")) {
            return Optional.of(error(401, "You didn't provide an API key. You need to provide your API key in an"
                    + " Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
                    "invalid_request_error", null, null));
        }
        if (!authorization.substring("Bearer ".length()).equals(expected.get())) {
            return Optional.of(error(401, "Incorrect API key provided.", "invalid_request_error", null,
                    "invalid_api_key"));
        }
        return Optional.empty();
    }

    /** A 400 when the body is not a JSON object or lacks one of {@code requiredFields}. */
    static Optional<Reply> checkBody(ApiCall call, String... requiredFields) {
        if (!call.body().isObject()) {
            return Optional.of(error(400, "We could not parse the JSON body of your request. (HINT: This likely"
                    + " means you aren't using your HTTP library correctly.)", "invalid_request_error", null, null));
        }
        for (String field : requiredFields) {
            if (!call.body().hasNonNull(field)) {
                return Optional.of(error(400, "Missing required parameter: '" + field + "'.",
                        "invalid_request_error", field, "missing_required_parameter"));
            }
        }
        return Optional.empty();
    }

    static Reply error(int status, String message, String type, String param, String code) {
        ObjectNode error = Json.object();
        error.put("message", message);
        error.put("type", type);
        error.put("param", param);
        error.put("code", code);
        ObjectNode body = Json.object();
        body.set("error", error);
        return Reply.json(status, body);
    }

    static Reply failure(int status) {
        String message = switch (status) {
            case 500 -> "The server had an error while processing your request. Sorry about that!";
            case 502 -> "Bad gateway.";
            case 503 -> "The server is overloaded or not ready yet.";
            default -> "Scripted HTTP " + status + " from the mock server.";
        };
        String type = status == 429 ? "requests" : status >= 500 ? "server_error" : "invalid_request_error";
        return error(status, message, type, null, status == 429 ? "rate_limit_exceeded" : null);
    }

    /** OpenAI answers overload with a 503, not Anthropic's 529. */
    static Reply overloaded() {
        return error(503, "The engine is currently overloaded, please try again later.", "server_error", null, null);
    }

    static Reply rateLimited(ApiCall call, LimitedDimension dimension, Duration retryAfter, String model) {
        RateLimits limits = call.settings().rateLimits();
        String window = dimension == LimitedDimension.REQUESTS
                ? "requests per min (RPM): Limit " + limits.requestLimit() + ", Used " + limits.requestLimit()
                        + ", Requested 1"
                : "tokens per min (TPM): Limit " + limits.tokenLimit() + ", Used " + limits.tokenLimit()
                        + ", Requested " + TokenAccounting.promptTokens(call.body());
        String message = "Rate limit reached for " + model + " in organization org-mock on " + window
                + ". Please try again in " + GoDurationFormat.format(retryAfter)
                + ". Visit https://platform.openai.com/account/rate-limits to learn more.";
        String type = dimension == LimitedDimension.REQUESTS ? "requests" : "tokens";
        return error(429, message, type, null, "rate_limit_exceeded")
                .withHeaders(rateLimitedHeaders(call, dimension, retryAfter));
    }

    /**
     * The headers of a 429 from OpenAI or Azure: {@code retry-after} in whole seconds,
     * {@code retry-after-ms}, and the rate-limit headers with {@code dimension} exhausted.
     */
    static Map<String, String> rateLimitedHeaders(ApiCall call, LimitedDimension dimension, Duration retryAfter) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("retry-after", String.valueOf(RetryAfter.seconds(retryAfter)));
        headers.put("retry-after-ms", String.valueOf(retryAfter.toMillis()));
        headers.putAll(rateLimitHeaders(call.settings().rateLimits().exhausted(dimension, retryAfter)));
        return headers;
    }

    static Map<String, String> rateLimitHeaders(RateLimits limits) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("x-ratelimit-limit-requests", String.valueOf(limits.requestLimit()));
        headers.put("x-ratelimit-remaining-requests", String.valueOf(limits.remainingRequests()));
        headers.put("x-ratelimit-reset-requests", GoDurationFormat.format(limits.requestsReset()));
        headers.put("x-ratelimit-limit-tokens", String.valueOf(limits.tokenLimit()));
        headers.put("x-ratelimit-remaining-tokens", String.valueOf(limits.remainingTokens()));
        headers.put("x-ratelimit-reset-tokens", GoDurationFormat.format(limits.tokensReset()));
        return headers;
    }

    static Map<String, String> requestIdHeaders(ApiCall call) {
        return Map.of("x-request-id", call.id("req_mock_"));
    }
}
