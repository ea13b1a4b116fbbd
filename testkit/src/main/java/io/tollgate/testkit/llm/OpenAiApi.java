package io.tollgate.testkit.llm;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * OpenAI's own endpoints, which differ only in their body shapes: {@code POST /v1/chat/completions}
 * and {@code POST /v1/responses}. The reply's {@code model} echoes the request's.
 */
final class OpenAiApi implements ProviderApi {

    static final OpenAiApi CHAT_COMPLETIONS = new OpenAiApi(
            call -> ChatCompletionFormat.reply(call, model(call)), "model", "messages");
    static final OpenAiApi RESPONSES = new OpenAiApi(
            call -> ResponsesFormat.reply(call, model(call)), "model", "input");

    private final Function<ApiCall, Reply> format;
    private final String[] requiredFields;

    private OpenAiApi(Function<ApiCall, Reply> format, String... requiredFields) {
        this.format = format;
        this.requiredFields = requiredFields;
    }

    @Override
    public Optional<Reply> reject(ApiCall call) {
        return OpenAiShapes.checkBearerKey(call).or(() -> OpenAiShapes.checkBody(call, requiredFields));
    }

    @Override
    public Reply success(ApiCall call) {
        return format.apply(call).withHeaders(OpenAiShapes.rateLimitHeaders(call.settings().rateLimits()));
    }

    @Override
    public Reply failure(ApiCall call, int status) {
        return OpenAiShapes.failure(status);
    }

    @Override
    public Reply overloaded(ApiCall call) {
        return OpenAiShapes.overloaded();
    }

    @Override
    public Reply rateLimited(ApiCall call, LimitedDimension dimension, Duration retryAfter) {
        return OpenAiShapes.rateLimited(call, dimension, retryAfter, model(call));
    }

    @Override
    public Map<String, String> requestIdHeaders(ApiCall call) {
        return OpenAiShapes.requestIdHeaders(call);
    }

    private static String model(ApiCall call) {
        return call.body().path("model").asText("");
    }
}
