package io.tollgate.testkit.llm;

import static io.tollgate.testkit.llm.LlmCalls.events;
import static io.tollgate.testkit.llm.LlmCalls.json;
import static io.tollgate.testkit.llm.LlmCalls.post;
import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.testkit.llm.LlmCalls.SseEvent;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class AnthropicMessagesTest extends ServerPerClassTest {

    /** System 9 + user 23 characters: 8 prompt tokens. */
    private static final String REQUEST = "{\"model\":\"claude-sonnet-4-5\",\"max_tokens\":%d,%s"
            + "\"system\":\"Be brief.\",\"messages\":[{\"role\":\"user\","
            + "\"content\":[{\"type\":\"text\",\"text\":\"Say hello to the world.\"}]}]}";

    private static HttpResponse<String> messages(int maxTokens, String extraFields, String... headers) {
        return post(client, server.uri("/v1/messages"), REQUEST.formatted(maxTokens, extraFields), headers);
    }

    @Test
    void answersAMessageInAnthropicsShape() {
        HttpResponse<String> response = messages(1024, "", LlmCalls.ANTHROPIC_HEADERS);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("request-id")).hasValue("req_mock_1");
        assertThat(json(response.body())).isEqualTo(json("""
                {"id":"msg_mock_1","type":"message","role":"assistant","model":"claude-sonnet-4-5",
                 "content":[{"type":"text","text":"%s"}],
                 "stop_reason":"end_turn","stop_sequence":null,
                 "usage":{"input_tokens":8,"output_tokens":20,
                          "cache_creation_input_tokens":0,"cache_read_input_tokens":0}}
                """.formatted(LlmCalls.DEFAULT_REPLY)));
    }

    @Test
    void sendsAnthropicRateLimitHeadersWithResetInstants() {
        HttpResponse<String> response = messages(1024, "", LlmCalls.ANTHROPIC_HEADERS);

        Instant arrival = server.takeRequest(LlmCalls.TIMEOUT).arrivedAt();
        assertThat(response.headers().firstValue("anthropic-ratelimit-requests-limit")).hasValue("10000");
        assertThat(response.headers().firstValue("anthropic-ratelimit-requests-remaining")).hasValue("9999");
        assertThat(response.headers().firstValue("anthropic-ratelimit-tokens-limit")).hasValue("2000000");
        assertThat(response.headers().firstValue("anthropic-ratelimit-tokens-remaining")).hasValue("1999980");
        Instant requestsReset = Instant.parse(response.headers().firstValue("anthropic-ratelimit-requests-reset")
                .orElseThrow());
        assertThat(requestsReset).isAfter(arrival).isEqualTo(requestsReset.truncatedTo(ChronoUnit.SECONDS));
    }

    @Test
    void streamsTheEventsInAnthropicsOrderWithUsage() {
        server.usage(31, 3).replyText("Hello there, world!");

        HttpResponse<String> response = messages(1024, "\"stream\":true,", LlmCalls.ANTHROPIC_HEADERS);

        assertThat(response.headers().firstValue("content-type")).hasValue("text/event-stream; charset=utf-8");
        List<SseEvent> events = events(response.body());
        assertThat(events).extracting(SseEvent::event).containsExactly(
                "message_start", "content_block_start", "ping",
                "content_block_delta", "content_block_delta", "content_block_delta",
                "content_block_stop", "message_delta", "message_stop");
        assertThat(events).allSatisfy(event -> assertThat(event.json().get("type").asText()).isEqualTo(event.event()));
        assertThat(events.get(0).json()).isEqualTo(json("""
                {"type":"message_start","message":{"id":"msg_mock_1","type":"message","role":"assistant",
                 "model":"claude-sonnet-4-5","content":[],"stop_reason":null,"stop_sequence":null,
                 "usage":{"input_tokens":31,"output_tokens":1,
                          "cache_creation_input_tokens":0,"cache_read_input_tokens":0}}}"""));
        assertThat(events.get(1).json()).isEqualTo(json("""
                {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}"""));
        assertThat(events.get(3).json()).isEqualTo(json("""
                {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hello "}}"""));
        assertThat(events.subList(3, 6).stream().map(e -> e.json().at("/delta/text").asText())
                .collect(Collectors.joining())).isEqualTo("Hello there, world!");
        assertThat(events.get(6).json()).isEqualTo(json("""
                {"type":"content_block_stop","index":0}"""));
        assertThat(events.get(7).json()).isEqualTo(json("""
                {"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},
                 "usage":{"output_tokens":3}}"""));
    }

    @Test
    void reportsCacheReadsApartFromInputTokensAsAnthropicDoes() {
        server.cachedTokens(40).usage(100, 20);

        HttpResponse<String> response = messages(1024, "", LlmCalls.ANTHROPIC_HEADERS);

        assertThat(json(response.body()).get("usage")).isEqualTo(json("""
                {"input_tokens":60,"output_tokens":20,
                 "cache_creation_input_tokens":0,"cache_read_input_tokens":40}"""));
    }

    @Test
    void streamsCacheReadsInMessageStart() {
        server.cachedTokens(40).usage(100, 20);

        HttpResponse<String> response = messages(1024, "\"stream\":true,", LlmCalls.ANTHROPIC_HEADERS);

        assertThat(events(response.body()).get(0).json().at("/message/usage")).isEqualTo(json("""
                {"input_tokens":60,"output_tokens":1,
                 "cache_creation_input_tokens":0,"cache_read_input_tokens":40}"""));
    }

    @Test
    void stopsWithMaxTokensWhenTheCapIsBelowTheConfiguredCompletion() {
        HttpResponse<String> response = messages(4, "", LlmCalls.ANTHROPIC_HEADERS);

        assertThat(json(response.body()).get("stop_reason").asText()).isEqualTo("max_tokens");
        assertThat(json(response.body()).at("/content/0/text").asText()).isEqualTo("This is a deterministic");
        assertThat(json(response.body()).at("/usage/output_tokens").asInt()).isEqualTo(4);
    }

    @Test
    void requiresAnApiKeyThenAVersionHeader() {
        HttpResponse<String> noKey = messages(10, "", "anthropic-version", "2023-06-01");
        HttpResponse<String> noVersion = messages(10, "", "x-api-key", "sk-ant-test");

        assertThat(noKey.statusCode()).isEqualTo(401);
        assertThat(json(noKey.body())).isEqualTo(json("""
                {"type":"error","error":{"type":"authentication_error","message":"x-api-key header is required"}}"""));
        assertThat(noVersion.statusCode()).isEqualTo(400);
        assertThat(json(noVersion.body())).isEqualTo(json("""
                {"type":"error","error":{"type":"invalid_request_error",
                 "message":"anthropic-version: header is required"}}"""));
    }

    @Test
    void rejectsAKeyOtherThanTheConfiguredOne() {
        server.requireApiKey("sk-ant-right");

        HttpResponse<String> wrong = messages(10, "", LlmCalls.ANTHROPIC_HEADERS);

        assertThat(wrong.statusCode()).isEqualTo(401);
        assertThat(json(wrong.body())).isEqualTo(json("""
                {"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}"""));
    }

    @Test
    void takesTheKeyAsABearerTokenTooAsTheSdkSendsIt() {
        server.requireApiKey("sk-ant-right");

        HttpResponse<String> bearer = messages(10, "", "Authorization", "Bearer sk-ant-right",
                "anthropic-version", "2023-06-01");
        HttpResponse<String> wrongBearer = messages(10, "", "Authorization", "Bearer sk-ant-wrong",
                "anthropic-version", "2023-06-01");

        assertThat(bearer.statusCode()).isEqualTo(200);
        assertThat(wrongBearer.statusCode()).isEqualTo(401);
        assertThat(json(wrongBearer.body())).isEqualTo(json("""
                {"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}"""));
    }

    @Test
    void requiresMaxTokensLikeTheRealApi() {
        HttpResponse<String> response = post(client, server.uri("/v1/messages"),
                "{\"model\":\"claude-sonnet-4-5\",\"messages\":[]}", LlmCalls.ANTHROPIC_HEADERS);

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(json(response.body())).isEqualTo(json("""
                {"type":"error","error":{"type":"invalid_request_error","message":"max_tokens: Field required"}}"""));
    }
}
