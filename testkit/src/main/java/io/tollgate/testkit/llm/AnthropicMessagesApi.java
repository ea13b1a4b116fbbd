package io.tollgate.testkit.llm;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * Anthropic {@code POST /v1/messages}. Like the real API it always requires a key, in
 * {@code x-api-key} or as {@code Authorization: Bearer} (as the Anthropic Java SDK 3.x sends it),
 * which must equal the configured key, if any; {@code anthropic-version}; and a body with
 * {@code model}, {@code max_tokens} and {@code messages}.
 */
final class AnthropicMessagesApi implements ProviderApi {

    static final AnthropicMessagesApi INSTANCE = new AnthropicMessagesApi();

    private AnthropicMessagesApi() {
    }

    @Override
    public Optional<Reply> reject(ApiCall call) {
        String apiKey = apiKey(call);
        if (apiKey == null) {
            return Optional.of(AnthropicShapes.error(401, "x-api-key header is required"));
        }
        if (call.settings().expectedApiKey().filter(expected -> !expected.equals(apiKey)).isPresent()) {
            return Optional.of(AnthropicShapes.error(401, "invalid x-api-key"));
        }
        if (call.request().header("anthropic-version") == null) {
            return Optional.of(AnthropicShapes.error(400, "anthropic-version: header is required"));
        }
        if (!call.body().isObject()) {
            return Optional.of(AnthropicShapes.error(400, "The request body is not valid JSON."));
        }
        for (String field : new String[] {"model", "max_tokens", "messages"}) {
            if (!call.body().hasNonNull(field)) {
                return Optional.of(AnthropicShapes.error(400, field + ": Field required"));
            }
        }
        return Optional.empty();
    }

    /** {@code x-api-key}, else the token of {@code Authorization: Bearer}; null with neither. */
    private static String apiKey(ApiCall call) {
        String apiKey = call.request().header("x-api-key");
        String authorization = call.request().header("authorization");
        if (apiKey == null && authorization != null && authorization.startsWith("Bearer ")) {
            return authorization.substring("Bearer ".length());
        }
        return apiKey;
    }

    @Override
    public Reply success(ApiCall call) {
        return AnthropicMessageFormat.reply(call)
                .withHeaders(AnthropicShapes.rateLimitHeaders(call, call.settings().rateLimits()));
    }

    @Override
    public Reply failure(ApiCall call, int status) {
        return AnthropicShapes.failure(status);
    }

    @Override
    public Reply overloaded(ApiCall call) {
        return AnthropicShapes.failure(529);
    }

    @Override
    public Reply rateLimited(ApiCall call, LimitedDimension dimension, Duration retryAfter) {
        return AnthropicShapes.rateLimited(call, dimension, retryAfter);
    }

    @Override
    public Map<String, String> requestIdHeaders(ApiCall call) {
        return Map.of("request-id", call.id("req_mock_"));
    }
}
