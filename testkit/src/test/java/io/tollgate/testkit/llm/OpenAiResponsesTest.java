package io.tollgate.testkit.llm;

import static io.tollgate.testkit.llm.LlmCalls.events;
import static io.tollgate.testkit.llm.LlmCalls.json;
import static io.tollgate.testkit.llm.LlmCalls.post;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.tollgate.testkit.llm.LlmCalls.SseEvent;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class OpenAiResponsesTest extends ServerPerClassTest {

    /** instructions 9 + input 23 characters: 8 input tokens. */
    private static final String REQUEST =
            "{\"model\":\"gpt-4.1\",\"instructions\":\"Be brief.\",\"input\":\"Say hello to the world.\"%s}";

    @Test
    void answersAResponseWithInputAndOutputTokenUsage() {
        server.replyText("Hello, world!").usage(8, 4);

        HttpResponse<String> response = post(client, server.uri("/v1/responses"), REQUEST.formatted(""));

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(json(response.body())).isEqualTo(json("""
                {"id":"resp_mock_1","object":"response","created_at":%d,"status":"completed","error":null,
                 "incomplete_details":null,"model":"gpt-4.1",
                 "output":[{"type":"message","id":"msg_mock_1","status":"completed","role":"assistant",
                            "content":[{"type":"output_text","text":"Hello, world!","annotations":[]}]}],
                 "usage":{"input_tokens":8,"input_tokens_details":{"cached_tokens":0},
                          "output_tokens":4,"output_tokens_details":{"reasoning_tokens":0},"total_tokens":12}}
                """.formatted(server.takeRequest(LlmCalls.TIMEOUT).arrivedAt().getEpochSecond())));
    }

    @Test
    void marksTheResponseIncompleteWhenMaxOutputTokensCutsIt() {
        HttpResponse<String> response = post(client, server.uri("/v1/responses"),
                REQUEST.formatted(",\"max_output_tokens\":2"));

        JsonNode body = json(response.body());
        assertThat(body.get("status").asText()).isEqualTo("incomplete");
        assertThat(body.get("incomplete_details")).isEqualTo(json("{\"reason\":\"max_output_tokens\"}"));
        assertThat(body.at("/usage/output_tokens").asInt()).isEqualTo(2);
    }

    @Test
    void streamsTypedEventsEndingWithCompletedCarryingUsage() {
        server.replyText("Hi there");

        HttpResponse<String> response = post(client, server.uri("/v1/responses"),
                REQUEST.formatted(",\"stream\":true"));

        List<SseEvent> events = events(response.body());
        assertThat(events).extracting(SseEvent::event).containsExactly(
                "response.created", "response.in_progress", "response.output_item.added",
                "response.content_part.added", "response.output_text.delta", "response.output_text.delta",
                "response.output_text.done", "response.content_part.done", "response.output_item.done",
                "response.completed");
        assertThat(events).extracting(event -> event.json().get("type").asText())
                .containsExactlyElementsOf(events.stream().map(SseEvent::event).toList());
        assertThat(events).extracting(event -> event.json().get("sequence_number").asInt())
                .containsExactlyElementsOf(IntStream.range(0, 10).boxed().toList());
        assertThat(events.get(4).json()).isEqualTo(json("""
                {"type":"response.output_text.delta","sequence_number":4,"item_id":"msg_mock_1",
                 "output_index":0,"content_index":0,"delta":"Hi "}"""));
        assertThat(events.get(6).json().get("text").asText()).isEqualTo("Hi there");
        JsonNode completed = events.get(9).json().get("response");
        assertThat(completed.get("status").asText()).isEqualTo("completed");
        assertThat(completed.get("usage")).isEqualTo(json("""
                {"input_tokens":8,"input_tokens_details":{"cached_tokens":0},
                 "output_tokens":20,"output_tokens_details":{"reasoning_tokens":0},"total_tokens":28}"""));
        assertThat(events.get(0).json().at("/response/status").asText()).isEqualTo("in_progress");
        assertThat(events.get(0).json().at("/response/usage").isNull()).isTrue();
    }

    @Test
    void reportsCachedInputTokensInInputTokensDetails() {
        server.cachedTokens(40).usage(100, 20);

        HttpResponse<String> response = post(client, server.uri("/v1/responses"), REQUEST.formatted(""));

        assertThat(json(response.body()).get("usage")).isEqualTo(json("""
                {"input_tokens":100,"input_tokens_details":{"cached_tokens":40},
                 "output_tokens":20,"output_tokens_details":{"reasoning_tokens":0},"total_tokens":120}"""));
    }

    @Test
    void requiresInput() {
        HttpResponse<String> response = post(client, server.uri("/v1/responses"), "{\"model\":\"gpt-4.1\"}");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(json(response.body()).at("/error/param").asText()).isEqualTo("input");
    }
}
