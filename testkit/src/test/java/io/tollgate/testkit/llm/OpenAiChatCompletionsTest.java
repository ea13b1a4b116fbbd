package io.tollgate.testkit.llm;

import static io.tollgate.testkit.llm.LlmCalls.DEFAULT_REPLY;
import static io.tollgate.testkit.llm.LlmCalls.chatRequest;
import static io.tollgate.testkit.llm.LlmCalls.events;
import static io.tollgate.testkit.llm.LlmCalls.json;
import static io.tollgate.testkit.llm.LlmCalls.post;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.tollgate.testkit.llm.LlmCalls.SseEvent;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class OpenAiChatCompletionsTest extends ServerPerClassTest {

    @Test
    void answersAChatCompletionInOpenAisShapeEchoingTheModel() {
        HttpResponse<String> response = post(client, server.uri("/v1/chat/completions"), chatRequest("gpt-4o", ""));

        long created = server.takeRequest(LlmCalls.TIMEOUT).arrivedAt().getEpochSecond();
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("content-type")).hasValue("application/json");
        assertThat(json(response.body())).isEqualTo(json("""
                {"id":"chatcmpl-mock-1","object":"chat.completion","created":%d,"model":"gpt-4o",
                 "system_fingerprint":"fp_mock",
                 "choices":[{"index":0,"message":{"role":"assistant","content":"%s","refusal":null},
                             "logprobs":null,"finish_reason":"stop"}],
                 "usage":{"prompt_tokens":8,"completion_tokens":20,"total_tokens":28}}
                """.formatted(created, DEFAULT_REPLY)));
    }

    @Test
    void sendsRateLimitAndRequestIdHeadersOnSuccess() {
        server.rateLimits(new RateLimits(500, 499, Duration.ofMillis(120), 30_000, 29_972, Duration.ofSeconds(90)));

        HttpResponse<String> response = post(client, server.uri("/v1/chat/completions"), chatRequest("gpt-4o", ""));

        assertThat(response.headers().map()).containsEntry("x-ratelimit-limit-requests", List.of("500"))
                .containsEntry("x-ratelimit-remaining-requests", List.of("499"))
                .containsEntry("x-ratelimit-reset-requests", List.of("120ms"))
                .containsEntry("x-ratelimit-limit-tokens", List.of("30000"))
                .containsEntry("x-ratelimit-remaining-tokens", List.of("29972"))
                .containsEntry("x-ratelimit-reset-tokens", List.of("1m30s"))
                .containsEntry("x-request-id", List.of("req_mock_1"));
    }

    @Test
    void streamsOneChunkPerWordThenFinishAndDoneWithoutUsageByDefault() {
        HttpResponse<String> response = post(client, server.uri("/v1/chat/completions"),
                chatRequest("gpt-4o-mini", "\"stream\":true"));

        assertThat(response.headers().firstValue("content-type")).hasValue("text/event-stream; charset=utf-8");
        List<SseEvent> events = events(response.body());
        assertThat(events).hasSize(1 + 20 + 1 + 1).allSatisfy(event -> assertThat(event.event()).isNull());
        assertThat(events.get(events.size() - 1).data()).isEqualTo("[DONE]");
        List<JsonNode> chunks = events.subList(0, events.size() - 1).stream().map(SseEvent::json).toList();
        assertThat(chunks).allSatisfy(chunk -> {
            assertThat(chunk.get("id").asText()).isEqualTo("chatcmpl-mock-1");
            assertThat(chunk.get("object").asText()).isEqualTo("chat.completion.chunk");
            assertThat(chunk.get("model").asText()).isEqualTo("gpt-4o-mini");
            assertThat(chunk.has("usage")).isFalse();
        });
        assertThat(chunks.get(0).get("choices")).isEqualTo(json("""
                [{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}]"""));
        assertThat(chunks.subList(1, 21).stream().map(c -> c.at("/choices/0/delta/content").asText())
                .collect(Collectors.joining())).isEqualTo(DEFAULT_REPLY);
        assertThat(chunks.get(1).at("/choices/0/delta/content").asText()).isEqualTo("This ");
        assertThat(chunks.get(21).get("choices")).isEqualTo(json("""
                [{"index":0,"delta":{},"logprobs":null,"finish_reason":"stop"}]"""));
    }

    @Test
    void streamsAUsageChunkBeforeDoneWhenIncludeUsageIsSet() {
        HttpResponse<String> response = post(client, server.uri("/v1/chat/completions"),
                chatRequest("gpt-4o", "\"stream\":true,\"stream_options\":{\"include_usage\":true}"));

        List<SseEvent> events = events(response.body());
        assertThat(events).hasSize(1 + 20 + 1 + 1 + 1);
        JsonNode usageChunk = events.get(22).json();
        assertThat(usageChunk.get("choices")).isEqualTo(json("[]"));
        assertThat(usageChunk.get("usage")).isEqualTo(json("""
                {"prompt_tokens":8,"completion_tokens":20,"total_tokens":28}"""));
        assertThat(events.get(21).json().at("/choices/0/finish_reason").asText()).isEqualTo("stop");
        assertThat(events.subList(0, 22)).allSatisfy(event -> assertThat(event.json().get("usage").isNull()).isTrue());
        assertThat(events.get(23).data()).isEqualTo("[DONE]");
    }

    @Test
    void capsCompletionTokensAtMaxTokensAndFinishesWithLength() {
        HttpResponse<String> response = post(client, server.uri("/v1/chat/completions"),
                chatRequest("gpt-4o", "\"max_tokens\":3"));

        JsonNode body = json(response.body());
        assertThat(body.at("/choices/0/message/content").asText()).isEqualTo("This is a");
        assertThat(body.at("/choices/0/finish_reason").asText()).isEqualTo("length");
        assertThat(body.get("usage")).isEqualTo(json("""
                {"prompt_tokens":8,"completion_tokens":3,"total_tokens":11}"""));
    }

    @Test
    void prefersMaxCompletionTokensOverMaxTokens() {
        HttpResponse<String> response = post(client, server.uri("/v1/chat/completions"),
                chatRequest("o3-mini", "\"max_completion_tokens\":2,\"max_tokens\":5"));

        assertThat(json(response.body()).at("/usage/completion_tokens").asInt()).isEqualTo(2);
    }

    @Test
    void reportsConfiguredUsageAndReplyText() {
        server.usage(1_234, 7).replyText("Hi there, tester!");

        HttpResponse<String> response = post(client, server.uri("/v1/chat/completions"),
                chatRequest("gpt-4o", "\"stream\":true,\"stream_options\":{\"include_usage\":true}"));

        List<SseEvent> events = events(response.body());
        assertThat(events.subList(1, 4)).extracting(event -> event.json().at("/choices/0/delta/content").asText())
                .containsExactly("Hi ", "there, ", "tester!");
        assertThat(events.get(4).json().at("/choices/0/finish_reason").asText()).isEqualTo("stop");
        assertThat(events.get(5).json().get("usage")).isEqualTo(json("""
                {"prompt_tokens":1234,"completion_tokens":7,"total_tokens":1241}"""));
    }

    @Test
    void reportsCachedPromptTokensInPromptTokensDetails() {
        server.cachedTokens(40).usage(100, 20);

        HttpResponse<String> response = post(client, server.uri("/v1/chat/completions"), chatRequest("gpt-4o", ""));

        assertThat(json(response.body()).get("usage")).isEqualTo(json("""
                {"prompt_tokens":100,"completion_tokens":20,"total_tokens":120,
                 "prompt_tokens_details":{"cached_tokens":40}}"""));
    }

    @Test
    void streamsCachedPromptTokensInTheUsageChunk() {
        server.cachedTokens(40).usage(100, 20);

        HttpResponse<String> response = post(client, server.uri("/v1/chat/completions"),
                chatRequest("gpt-4o", "\"stream\":true,\"stream_options\":{\"include_usage\":true}"));

        List<SseEvent> events = events(response.body());
        assertThat(events).hasSize(1 + 20 + 1 + 1 + 1);
        assertThat(events.get(22).json().get("usage")).isEqualTo(json("""
                {"prompt_tokens":100,"completion_tokens":20,"total_tokens":120,
                 "prompt_tokens_details":{"cached_tokens":40}}"""));
    }

    @Test
    void leavesOutPromptTokensDetailsWhenNothingIsCached() {
        server.usage(100, 20);

        HttpResponse<String> response = post(client, server.uri("/v1/chat/completions"), chatRequest("gpt-4o", ""));

        JsonNode usage = json(response.body()).get("usage");
        assertThat(usage.has("prompt_tokens_details")).isFalse();
        assertThat(usage).isEqualTo(json("""
                {"prompt_tokens":100,"completion_tokens":20,"total_tokens":120}"""));
    }

    @Test
    void capsCachedPromptTokensAtThePromptTokens() {
        server.cachedTokens(40);

        HttpResponse<String> response = post(client, server.uri("/v1/chat/completions"), chatRequest("gpt-4o", ""));

        assertThat(json(response.body()).get("usage")).isEqualTo(json("""
                {"prompt_tokens":8,"completion_tokens":20,"total_tokens":28,
                 "prompt_tokens_details":{"cached_tokens":8}}"""));
    }

    @Test
    void flushesEachChunkOnItsOwnWhenAChunkDelayIsSet() throws Exception {
        Duration delay = Duration.ofMillis(40);
        server.usage(5, 6).chunkDelay(delay);
        HttpRequest request = HttpRequest.newBuilder(server.uri("/v1/chat/completions"))
                .POST(HttpRequest.BodyPublishers.ofString(chatRequest("gpt-4o", "\"stream\":true"))).build();

        long sent = System.nanoTime();
        HttpResponse<InputStream> response = client.send(request, HttpResponse.BodyHandlers.ofInputStream());
        List<Long> dataLineArrivals = new ArrayList<>();
        try (BufferedReader reader = new BufferedReader(
                new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                if (line.startsWith("data: ")) {
                    dataLineArrivals.add(System.nanoTime());
                }
            }
        }

        // role + 6 words + finish + [DONE] = 9 events, 8 pauses between them.
        assertThat(dataLineArrivals).hasSize(9);
        assertThat(Duration.ofNanos(dataLineArrivals.get(8) - sent)).isGreaterThanOrEqualTo(delay.multipliedBy(8));
        // The first event was readable long before the last: only half the pauses are asked for,
        // as a busy machine may start this reader late.
        assertThat(Duration.ofNanos(dataLineArrivals.get(8) - dataLineArrivals.get(0)))
                .isGreaterThanOrEqualTo(delay.multipliedBy(4));
    }

    @Test
    void requiresTheConfiguredBearerKeyOnlyOnceOneIsSet() {
        String request = chatRequest("gpt-4o", "");
        assertThat(post(client, server.uri("/v1/chat/completions"), request).statusCode()).isEqualTo(200);

        server.requireApiKey("sk-right");
        HttpResponse<String> missing = post(client, server.uri("/v1/chat/completions"), request);
        HttpResponse<String> wrong = post(client, server.uri("/v1/chat/completions"), request,
                "authorization", "Bearer sk-wrong");
        HttpResponse<String> right = post(client, server.uri("/v1/chat/completions"), request,
                "authorization", "Bearer sk-right");

        assertThat(missing.statusCode()).isEqualTo(401);
        assertThat(json(missing.body()).get("error")).isEqualTo(json("""
                {"message":"You didn't provide an API key. You need to provide your API key in an Authorization \
                header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
                 "type":"invalid_request_error","param":null,"code":null}"""));
        assertThat(wrong.statusCode()).isEqualTo(401);
        assertThat(json(wrong.body())).isEqualTo(json("""
                {"error":{"message":"Incorrect API key provided.","type":"invalid_request_error","param":null,
                          "code":"invalid_api_key"}}"""));
        assertThat(right.statusCode()).isEqualTo(200);
    }

    @Test
    void rejectsABodyThatIsNotJsonAndOneWithoutMessages() {
        HttpResponse<String> notJson = post(client, server.uri("/v1/chat/completions"), "{\"model\":");
        HttpResponse<String> noMessages = post(client, server.uri("/v1/chat/completions"), "{\"model\":\"gpt-4o\"}");

        assertThat(notJson.statusCode()).isEqualTo(400);
        assertThat(json(notJson.body()).at("/error/type").asText()).isEqualTo("invalid_request_error");
        assertThat(noMessages.statusCode()).isEqualTo(400);
        assertThat(json(noMessages.body())).isEqualTo(json("""
                {"error":{"message":"Missing required parameter: 'messages'.","type":"invalid_request_error",
                          "param":"messages","code":"missing_required_parameter"}}"""));
    }

    @Test
    void rejectsTrailingGarbageAfterAValidJsonObject() {
        HttpResponse<String> response = post(client, server.uri("/v1/chat/completions"),
                chatRequest("gpt-4o", "") + " trailing");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(json(response.body()).at("/error/message").asText())
                .startsWith("We could not parse the JSON body of your request.");
    }

    @Test
    void rejectionsDoNotConsumeScriptedFaults() {
        server.requireApiKey("sk-right").script().next(1, Fault.status(500));

        assertThat(post(client, server.uri("/v1/chat/completions"), chatRequest("gpt-4o", "")).statusCode())
                .isEqualTo(401);
        assertThat(server.script().queuedCount()).isEqualTo(1);
        assertThat(post(client, server.uri("/v1/chat/completions"), chatRequest("gpt-4o", ""),
                "authorization", "Bearer sk-right").statusCode()).isEqualTo(500);
    }
}
