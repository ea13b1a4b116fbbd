package io.tollgate.testkit.llm;

import static io.tollgate.testkit.llm.LlmCalls.chatRequest;
import static io.tollgate.testkit.llm.LlmCalls.events;
import static io.tollgate.testkit.llm.LlmCalls.json;
import static io.tollgate.testkit.llm.LlmCalls.post;
import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.testkit.llm.LlmCalls.SseEvent;
import java.net.URI;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.Test;

class AzureOpenAiTest extends ServerPerClassTest {

    private static final String AZURE_BODY =
            "{\"messages\":[{\"role\":\"user\",\"content\":\"Say hello to the world.\"}]}";

    private static URI deployment(String name, String query) {
        return server.uri("/openai/deployments/" + name + "/chat/completions" + query);
    }

    @Test
    void answersInOpenAisShapeWithTheDeploymentAsModel() {
        HttpResponse<String> response = post(client, deployment("gpt4o-prod", "?api-version=2024-10-21"),
                AZURE_BODY, "api-key", "azure-key");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("apim-request-id")).hasValue("req_mock_1");
        assertThat(json(response.body())).isEqualTo(json("""
                {"id":"chatcmpl-mock-1","object":"chat.completion","created":%d,"model":"gpt4o-prod",
                 "system_fingerprint":"fp_mock",
                 "choices":[{"index":0,"message":{"role":"assistant","content":"%s","refusal":null},
                             "logprobs":null,"finish_reason":"stop"}],
                 "usage":{"prompt_tokens":6,"completion_tokens":20,"total_tokens":26}}
                """.formatted(server.takeRequest(LlmCalls.TIMEOUT).arrivedAt().getEpochSecond(),
                LlmCalls.DEFAULT_REPLY)));
    }

    @Test
    void streamsOpenAiChunksWithTheDeploymentAsModelAndUsageWhenAsked() {
        HttpResponse<String> response = post(client, deployment("gpt4o-prod", "?api-version=2024-10-21"),
                chatRequest("ignored-by-azure", "\"stream\":true,\"stream_options\":{\"include_usage\":true}"),
                "api-key", "azure-key");

        List<SseEvent> events = events(response.body());
        assertThat(events).hasSize(24);
        assertThat(events.subList(0, 23)).allSatisfy(
                event -> assertThat(event.json().get("model").asText()).isEqualTo("gpt4o-prod"));
        assertThat(events.get(22).json().get("usage")).isEqualTo(json("""
                {"prompt_tokens":8,"completion_tokens":20,"total_tokens":28}"""));
        assertThat(events.get(23).data()).isEqualTo("[DONE]");
    }

    @Test
    void reportsCachedPromptTokensAsOpenAiDoes() {
        server.cachedTokens(40).usage(100, 20);

        HttpResponse<String> response = post(client, deployment("gpt4o-prod", "?api-version=2024-10-21"),
                AZURE_BODY, "api-key", "azure-key");

        assertThat(json(response.body()).get("usage")).isEqualTo(json("""
                {"prompt_tokens":100,"completion_tokens":20,"total_tokens":120,
                 "prompt_tokens_details":{"cached_tokens":40}}"""));
    }

    @Test
    void requiresTheApiVersionQueryParameter() {
        HttpResponse<String> response = post(client, deployment("gpt4o-prod", ""), AZURE_BODY, "api-key", "k");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(json(response.body())).isEqualTo(json("""
                {"error":{"code":"MissingApiVersionParameter",
                          "message":"The api-version query parameter (?api-version=) is required for all requests."}}
                """));
    }

    @Test
    void requiresAnApiKeyHeaderEvenWhenNoKeyIsConfigured() {
        HttpResponse<String> response = post(client, deployment("gpt4o-prod", "?api-version=2024-10-21"), AZURE_BODY,
                "authorization", "Bearer sk-openai-style");

        assertThat(response.statusCode()).isEqualTo(401);
        assertThat(json(response.body())).isEqualTo(json("""
                {"error":{"code":"401","message":"Access denied due to missing subscription key. Make sure to \
                include subscription key when making requests to an API."}}"""));
    }

    @Test
    void rejectsAnApiKeyOtherThanTheConfiguredOne() {
        server.requireApiKey("azure-right");

        HttpResponse<String> wrong = post(client, deployment("d", "?api-version=2024-10-21"), AZURE_BODY,
                "api-key", "azure-wrong");
        HttpResponse<String> right = post(client, deployment("d", "?api-version=2024-10-21"), AZURE_BODY,
                "api-key", "azure-right");

        assertThat(wrong.statusCode()).isEqualTo(401);
        assertThat(json(wrong.body()).at("/error/code").asText()).isEqualTo("401");
        assertThat(json(wrong.body()).at("/error/message").asText())
                .startsWith("Access denied due to invalid subscription key or wrong API endpoint.");
        assertThat(right.statusCode()).isEqualTo(200);
    }
}
