package io.tollgate.testkit.llm;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * Azure OpenAI {@code POST /openai/deployments/{deployment}/chat/completions?api-version=...}.
 * The body and stream are OpenAI's, with {@code model} set to the deployment name. Azure's
 * gateway answers a missing {@code api-version}, a missing or wrong {@code api-key} and a 429 in
 * its own {@code {"error":{"code","message"}}} shape; errors from the model behind it (bad body,
 * 5xx) keep OpenAI's shape, as the real service does.
 */
final class AzureChatApi implements ProviderApi {

    private final String deployment;

    AzureChatApi(String deployment) {
        this.deployment = deployment;
    }

    @Override
    public Optional<Reply> reject(ApiCall call) {
        if (call.request().queryParameter("api-version") == null) {
            return Optional.of(error(400, "MissingApiVersionParameter",
                    "The api-version query parameter (?api-version=) is required for all requests."));
        }
        String apiKey = call.request().header("api-key");
        if (apiKey == null) {
            return Optional.of(error(401, "401", "Access denied due to missing subscription key. Make sure to"
                    + " include subscription key when making requests to an API."));
        }
        if (call.settings().expectedApiKey().filter(expected -> !expected.equals(apiKey)).isPresent()) {
            return Optional.of(error(401, "401", "Access denied due to invalid subscription key or wrong API"
                    + " endpoint. Make sure to provide a valid key for an active subscription and use a correct"
                    + " regional API endpoint for your resource."));
        }
        return OpenAiShapes.checkBody(call, "messages");
    }

    @Override
    public Reply success(ApiCall call) {
        return ChatCompletionFormat.reply(call, deployment)
                .withHeaders(OpenAiShapes.rateLimitHeaders(call.settings().rateLimits()));
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
        String limit = dimension == LimitedDimension.REQUESTS ? "call rate limit" : "token rate limit";
        String message = "Requests to the ChatCompletions_Create Operation under Azure OpenAI API version "
                + call.request().queryParameter("api-version") + " have exceeded " + limit
                + " of your current OpenAI S0 pricing tier. Please retry after "
                + RetryAfter.seconds(retryAfter) + " seconds.";
        return error(429, "429", message).withHeaders(OpenAiShapes.rateLimitedHeaders(call, dimension, retryAfter));
    }

    @Override
    public Map<String, String> requestIdHeaders(ApiCall call) {
        return Map.of("apim-request-id", call.id("req_mock_"));
    }

    private static Reply error(int status, String code, String message) {
        ObjectNode error = Json.object();
        error.put("code", code);
        error.put("message", message);
        ObjectNode body = Json.object();
        body.set("error", error);
        return Reply.json(status, body);
    }
}
