package io.tollgate.testkit.llm;

import static io.tollgate.testkit.llm.LlmCalls.chatRequest;
import static io.tollgate.testkit.llm.LlmCalls.json;
import static io.tollgate.testkit.llm.LlmCalls.post;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class ErrorFaultsTest extends ServerPerClassTest {

    private static HttpResponse<String> chat() {
        return post(client, server.uri("/v1/chat/completions"), chatRequest("gpt-4o", ""));
    }

    private static HttpResponse<String> anthropic() {
        return post(client, server.uri("/v1/messages"), LlmCalls.ANTHROPIC_REQUEST, LlmCalls.ANTHROPIC_HEADERS);
    }

    @Test
    void openAi500And503CarryOpenAiServerErrorBodies() {
        server.script().next(1, Fault.status(500)).next(1, Fault.status(503));

        HttpResponse<String> first = chat();
        HttpResponse<String> second = chat();

        assertThat(first.statusCode()).isEqualTo(500);
        assertThat(json(first.body())).isEqualTo(json("""
                {"error":{"message":"The server had an error while processing your request. Sorry about that!",
                          "type":"server_error","param":null,"code":null}}"""));
        assertThat(first.headers().firstValue("x-request-id")).hasValue("req_mock_1");
        assertThat(second.statusCode()).isEqualTo(503);
        assertThat(json(second.body())).isEqualTo(json("""
                {"error":{"message":"The server is overloaded or not ready yet.",
                          "type":"server_error","param":null,"code":null}}"""));
    }

    @Test
    void anthropic500And503AreApiErrors() {
        server.script().next(1, Fault.status(500)).next(1, Fault.status(503));

        HttpResponse<String> first = anthropic();
        HttpResponse<String> second = anthropic();

        assertThat(first.statusCode()).isEqualTo(500);
        assertThat(json(first.body())).isEqualTo(json("""
                {"type":"error","error":{"type":"api_error","message":"Internal server error"}}"""));
        assertThat(second.statusCode()).isEqualTo(503);
        assertThat(json(second.body()).at("/error/type").asText()).isEqualTo("api_error");
    }

    @Test
    void overloadedIs529ForAnthropicAnd503ForOpenAi() {
        server.script().always(Fault.overloaded());

        HttpResponse<String> anthropic = anthropic();
        HttpResponse<String> openAi = chat();

        assertThat(anthropic.statusCode()).isEqualTo(529);
        assertThat(json(anthropic.body())).isEqualTo(json("""
                {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"""));
        assertThat(openAi.statusCode()).isEqualTo(503);
        assertThat(json(openAi.body())).isEqualTo(json("""
                {"error":{"message":"The engine is currently overloaded, please try again later.",
                          "type":"server_error","param":null,"code":null}}"""));
    }

    @Test
    void status529OnOpenAiKeepsTheStatusWithAnOpenAiBody() {
        server.script().next(1, Fault.status(529));

        HttpResponse<String> response = chat();

        assertThat(response.statusCode()).isEqualTo(529);
        assertThat(json(response.body()).at("/error/type").asText()).isEqualTo("server_error");
    }

    @Test
    void azureModelErrorsKeepOpenAisShape() {
        server.script().next(1, Fault.status(500));

        HttpResponse<String> response = post(client,
                server.uri("/openai/deployments/d/chat/completions?api-version=2024-10-21"),
                chatRequest("gpt-4o", ""), "api-key", "k");

        assertThat(response.statusCode()).isEqualTo(500);
        assertThat(json(response.body()).at("/error/type").asText()).isEqualTo("server_error");
    }

    @Test
    void scriptedFaultsHitTheNextCallsInOrderThenTheStandingRule() {
        server.script().next(2, Fault.status(503)).always(Fault.status(500));

        List<Integer> statuses = List.of(chat().statusCode(), chat().statusCode(), chat().statusCode(),
                chat().statusCode());

        assertThat(statuses).containsExactly(503, 503, 500, 500);
        server.script().clear();
        assertThat(chat().statusCode()).isEqualTo(200);
    }

    @Test
    void afterSuccessesLetsTheFirstCallsThrough() {
        server.script().afterSuccesses(2, Fault.status(503));

        assertThat(List.of(chat().statusCode(), chat().statusCode(), chat().statusCode(), chat().statusCode()))
                .containsExactly(200, 200, 503, 503);
    }

    @Test
    void latencyDelaysASuccessfulReply() {
        Duration latency = Duration.ofMillis(300);
        server.script().next(1, Fault.latency(latency));

        long start = System.nanoTime();
        HttpResponse<String> response = chat();
        Duration elapsed = Duration.ofNanos(System.nanoTime() - start);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(elapsed).isGreaterThanOrEqualTo(latency);
    }

    @Test
    void latencyCanDelayAnErrorToo() {
        Duration latency = Duration.ofMillis(250);
        server.script().next(1, Fault.status(503).withLatency(latency));

        long start = System.nanoTime();
        HttpResponse<String> response = anthropic();
        Duration elapsed = Duration.ofNanos(System.nanoTime() - start);

        assertThat(response.statusCode()).isEqualTo(503);
        assertThat(elapsed).isGreaterThanOrEqualTo(latency);
    }
}
