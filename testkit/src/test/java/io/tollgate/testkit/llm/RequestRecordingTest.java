package io.tollgate.testkit.llm;

import static io.tollgate.testkit.llm.LlmCalls.chatRequest;
import static io.tollgate.testkit.llm.LlmCalls.json;
import static io.tollgate.testkit.llm.LlmCalls.post;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class RequestRecordingTest extends ServerPerClassTest {

    @Test
    void recordsMethodPathQueryHeadersBodyVersionAndArrival() {
        String body = chatRequest("gpt-4o", "\"temperature\":0.5");
        Instant before = Instant.now().truncatedTo(ChronoUnit.MILLIS);

        post(client, server.uri("/openai/deployments/gpt4o/chat/completions?api-version=2024-10-21&note=a%20b"),
                body, "api-key", "azure-key", "X-Trace-Id", "trace-1");

        Instant after = Instant.now();
        RecordedRequest request = server.takeRequest(LlmCalls.TIMEOUT);
        assertThat(request.sequenceNumber()).isEqualTo(1);
        assertThat(request.method()).isEqualTo("POST");
        assertThat(request.path()).isEqualTo("/openai/deployments/gpt4o/chat/completions");
        assertThat(request.query()).isEqualTo("api-version=2024-10-21&note=a%20b");
        assertThat(request.queryParameter("api-version")).isEqualTo("2024-10-21");
        assertThat(request.queryParameter("note")).isEqualTo("a b");
        assertThat(request.queryParameter("absent")).isNull();
        assertThat(request.header("x-trace-id")).isEqualTo("trace-1");
        assertThat(request.header("X-TRACE-ID")).isEqualTo("trace-1");
        assertThat(request.header("Api-Key")).isEqualTo("azure-key");
        assertThat(request.header("content-type")).isEqualTo("application/json");
        assertThat(request.header("absent")).isNull();
        assertThat(request.headers("absent")).isEmpty();
        assertThat(request.headers().get("API-KEY")).containsExactly("azure-key");
        assertThat(request.bodyText()).isEqualTo(body);
        assertThat(request.body()).isEqualTo(body.getBytes(StandardCharsets.UTF_8));
        assertThat(request.json().get("temperature").asDouble()).isEqualTo(0.5);
        assertThat(request.httpVersion()).isEqualTo("HTTP/1.1");
        assertThat(request.arrivedAt()).isBetween(before, after);
        assertThat(request).hasToString(
                "#1 POST /openai/deployments/gpt4o/chat/completions?api-version=2024-10-21&note=a%20b HTTP/1.1");
    }

    @Test
    void keepsRepeatedHeaderValuesInOrder() {
        HttpRequest request = HttpRequest.newBuilder(server.uri("/v1/models"))
                .header("x-multi", "first").header("x-multi", "second").GET().build();

        LlmCalls.send(client, request);

        assertThat(server.takeRequest(LlmCalls.TIMEOUT).headers("X-Multi")).containsExactly("first", "second");
    }

    @Test
    void takeRequestHandsOutRequestsOneByOneInArrivalOrder() {
        post(client, server.uri("/v1/chat/completions"), chatRequest("first", ""));
        post(client, server.uri("/v1/chat/completions"), chatRequest("second", ""));

        assertThat(server.takeRequest(LlmCalls.TIMEOUT).json().get("model").asText()).isEqualTo("first");
        assertThat(server.takeRequest(LlmCalls.TIMEOUT).json().get("model").asText()).isEqualTo("second");
        assertThat(server.requests()).extracting(RecordedRequest::sequenceNumber).containsExactly(1, 2);
    }

    @Test
    void takeRequestFailsWhenNothingArrivesInTime() {
        assertThatThrownBy(() -> server.takeRequest(Duration.ofMillis(50)))
                .isInstanceOf(AssertionError.class)
                .hasMessage("expected request #1 within PT0.05S but only 0 arrived: []");
    }

    @Test
    void awaitRequestsWaitsForCallsStillInFlight() {
        server.script().always(Fault.latency(Duration.ofMillis(100)));
        List<CompletableFuture<HttpResponse<String>>> calls = IntStream.range(0, 3)
                .mapToObj(i -> client.sendAsync(HttpRequest.newBuilder(server.uri("/v1/chat/completions"))
                        .POST(HttpRequest.BodyPublishers.ofString(chatRequest("m" + i, ""))).build(),
                        HttpResponse.BodyHandlers.ofString()))
                .toList();

        List<RecordedRequest> requests = server.awaitRequests(3, LlmCalls.TIMEOUT);

        assertThat(requests).hasSize(3);
        assertThat(server.requestCount()).isEqualTo(3);
        assertThat(calls).allSatisfy(call -> assertThat(call.join().statusCode()).isEqualTo(200));
    }

    @Test
    void requestsIsAnImmutableSnapshot() {
        post(client, server.uri("/v1/chat/completions"), chatRequest("gpt-4o", ""));
        List<RecordedRequest> snapshot = server.requests();

        post(client, server.uri("/v1/chat/completions"), chatRequest("gpt-4o", ""));

        assertThat(snapshot).hasSize(1);
        assertThatThrownBy(snapshot::clear).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void recordsRejectedAndUnroutedRequestsToo() {
        server.requireApiKey("sk-right");

        post(client, server.uri("/v1/chat/completions"), chatRequest("gpt-4o", ""));
        LlmCalls.get(client, server.uri("/nowhere?x=1"));

        assertThat(server.requests()).extracting(RecordedRequest::toString).containsExactly(
                "#1 POST /v1/chat/completions HTTP/1.1", "#2 GET /nowhere?x=1 HTTP/1.1");
    }

    @Test
    void resetForgetsRequestsFaultsAndSettings() {
        server.usage(1, 1).cachedTokens(1).replyText("configured").requireApiKey("sk-x")
                .chunkDelay(Duration.ofSeconds(1));
        server.script().always(Fault.status(500));
        post(client, server.uri("/v1/chat/completions"), chatRequest("gpt-4o", ""));

        server.reset();
        HttpResponse<String> response = post(client, server.uri("/v1/chat/completions"), chatRequest("gpt-4o", ""));

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(json(response.body()).at("/choices/0/message/content").asText()).isEqualTo(LlmCalls.DEFAULT_REPLY);
        assertThat(json(response.body()).get("id").asText()).isEqualTo("chatcmpl-mock-1");
        assertThat(json(response.body()).get("usage").has("prompt_tokens_details")).isFalse();
        assertThat(server.requestCount()).isEqualTo(1);
    }

    @Test
    void answersAHundredConcurrentCallsEachWithItsOwnReply() {
        // The latency keeps every call in flight while the others arrive.
        server.script().always(Fault.latency(Duration.ofMillis(200)));
        List<CompletableFuture<HttpResponse<String>>> calls = IntStream.range(0, 100)
                .mapToObj(i -> client.sendAsync(HttpRequest.newBuilder(server.uri("/v1/chat/completions"))
                        .POST(HttpRequest.BodyPublishers.ofString(chatRequest("model-" + i, ""))).build(),
                        HttpResponse.BodyHandlers.ofString()))
                .toList();

        List<HttpResponse<String>> responses = calls.stream().map(CompletableFuture::join).toList();

        assertThat(responses).allSatisfy(response -> assertThat(response.statusCode()).isEqualTo(200));
        assertThat(responses).extracting(response -> json(response.body()).get("model").asText())
                .containsExactlyElementsOf(IntStream.range(0, 100).mapToObj(i -> "model-" + i).toList());
        assertThat(responses).extracting(response -> json(response.body()).get("id").asText())
                .containsExactlyInAnyOrderElementsOf(
                        IntStream.rangeClosed(1, 100).mapToObj(i -> "chatcmpl-mock-" + i).toList());
        assertThat(server.requestCount()).isEqualTo(100);
    }
}
