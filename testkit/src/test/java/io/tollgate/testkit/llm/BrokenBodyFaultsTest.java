package io.tollgate.testkit.llm;

import static io.tollgate.testkit.llm.LlmCalls.chatRequest;
import static io.tollgate.testkit.llm.LlmCalls.post;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class BrokenBodyFaultsTest extends ServerPerClassTest {

    /** What a streaming client saw before the body failed: the status, the data lines and the failure. */
    record CutStream(int status, List<String> dataLines, Throwable failure) {
    }

    /**
     * Collects the body as the JDK delivers it to a subscriber, which gets every byte received
     * before the failure (an InputStream reader may not, see {@link #readThroughInputStream}).
     */
    static CutStream readUntilFailure(HttpClient client, URI uri, String body, String... headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).POST(HttpRequest.BodyPublishers.ofString(body));
        if (headers.length > 0) {
            request.headers(headers);
        }
        ByteCollector collector = new ByteCollector();
        AtomicInteger status = new AtomicInteger();
        Throwable failure = null;
        try {
            client.sendAsync(request.build(), info -> {
                status.set(info.statusCode());
                return HttpResponse.BodySubscribers.fromSubscriber(collector);
            }).get(LlmCalls.TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            failure = e.getCause();
        }
        return new CutStream(status.get(), dataLines(collector.text()), failure);
    }

    private static List<String> dataLines(String text) {
        return text.lines().filter(line -> line.startsWith("data: "))
                .map(line -> line.substring("data: ".length())).toList();
    }

    private static final class ByteCollector implements Flow.Subscriber<List<ByteBuffer>> {
        private final ByteArrayOutputStream received = new ByteArrayOutputStream();

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            subscription.request(Long.MAX_VALUE);
        }

        @Override
        public synchronized void onNext(List<ByteBuffer> buffers) {
            for (ByteBuffer buffer : buffers) {
                byte[] bytes = new byte[buffer.remaining()];
                buffer.get(bytes);
                received.writeBytes(bytes);
            }
        }

        @Override
        public void onError(Throwable failure) {
        }

        @Override
        public void onComplete() {
        }

        synchronized String text() {
            return received.toString(StandardCharsets.UTF_8);
        }
    }

    @Test
    void resetMidStreamFailsTheClientAfterTheFirstEvents() throws Exception {
        server.script().next(1, Fault.resetMidStream(2));

        CutStream cut = readUntilFailure(client, server.uri("/v1/chat/completions"),
                chatRequest("gpt-4o", "\"stream\":true"));

        assertThat(cut.status()).isEqualTo(200);
        assertThat(cut.dataLines()).hasSize(2);
        assertThat(LlmCalls.json(cut.dataLines().get(0)).at("/choices/0/delta/role").asText()).isEqualTo("assistant");
        assertThat(LlmCalls.json(cut.dataLines().get(1)).at("/choices/0/delta/content").asText()).isEqualTo("This ");
        assertThat(cut.failure()).isInstanceOf(IOException.class);
    }

    @Test
    void resetMidStreamCutsAnAnthropicStreamAfterItsFirstEvents() throws Exception {
        server.script().next(1, Fault.resetMidStream(3));

        CutStream cut = readUntilFailure(client, server.uri("/v1/messages"),
                "{\"model\":\"claude-haiku-4-5\",\"max_tokens\":50,\"stream\":true,\"messages\":[]}",
                "x-api-key", "k", "anthropic-version", "2023-06-01");

        assertThat(cut.dataLines()).extracting(line -> LlmCalls.json(line).get("type").asText())
                .containsExactly("message_start", "content_block_start", "ping");
        assertThat(cut.failure()).isInstanceOf(IOException.class);
    }

    @Test
    void resetBeforeAnyEventStillSendsTheStatusFirst() throws Exception {
        server.script().next(1, Fault.resetMidStream(0));

        CutStream cut = readUntilFailure(client, server.uri("/v1/chat/completions"),
                chatRequest("gpt-4o", "\"stream\":true"));

        assertThat(cut.status()).isEqualTo(200);
        assertThat(cut.dataLines()).isEmpty();
        assertThat(cut.failure()).isInstanceOf(IOException.class);
    }

    @Test
    void resetOnAJsonCallCutsTheBodyShortOfItsContentLength() {
        server.script().next(1, Fault.resetMidStream());

        assertThatThrownBy(() -> post(client, server.uri("/v1/chat/completions"), chatRequest("gpt-4o", "")))
                .isInstanceOf(UncheckedIOException.class)
                .hasRootCauseInstanceOf(IOException.class);
        assertThat(post(client, server.uri("/v1/chat/completions"), chatRequest("gpt-4o", "")).statusCode())
                .isEqualTo(200);
    }

    @Test
    void aClientReadingThroughAnInputStreamGetsTheEventsBeforeTheFailure() throws Exception {
        server.script().next(1, Fault.resetMidStream(2));
        HttpRequest request = HttpRequest.newBuilder(server.uri("/v1/chat/completions"))
                .POST(HttpRequest.BodyPublishers.ofString(chatRequest("gpt-4o", "\"stream\":true"))).build();

        HttpResponse<InputStream> response = client.send(request, HttpResponse.BodyHandlers.ofInputStream());
        List<String> lines = new ArrayList<>();
        assertThatThrownBy(() -> {
            try (BufferedReader reader =
                         new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
                for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                    lines.add(line);
                }
            }
        }).isInstanceOf(IOException.class);

        assertThat(lines).hasSize(4);
        assertThat(lines.get(2)).startsWith("data: ").contains("\"content\":\"This \"");
    }

    @Test
    void malformedJsonSendsExactlyTheFaultsBytesAsA200() {
        Fault fault = Fault.malformedJson();
        server.script().next(1, fault);

        HttpResponse<String> response = post(client, server.uri("/v1/chat/completions"), chatRequest("gpt-4o", ""));

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("content-type")).hasValue("application/json");
        assertThat(response.body().getBytes(StandardCharsets.UTF_8)).isEqualTo(fault.body());
        assertThat(response.body()).isEqualTo(Fault.MALFORMED_JSON_BODY);
        assertThatThrownBy(() -> LlmCalls.json(response.body())).isInstanceOf(UncheckedIOException.class);
    }

    @Test
    void malformedJsonCanCarryACustomBody() {
        server.script().next(1, Fault.malformedJson("{\"usage\":{\"prompt_tokens\":"));

        HttpResponse<String> response = post(client, server.uri("/v1/messages"),
                "{\"model\":\"m\",\"max_tokens\":5,\"messages\":[]}", "x-api-key", "k", "anthropic-version", "v");

        assertThat(response.body()).isEqualTo("{\"usage\":{\"prompt_tokens\":");
    }

    @Test
    void malformedSseSendsExactlyTheFaultsBytesAsAnEventStream() {
        Fault fault = Fault.malformedSse();
        server.script().next(1, fault);

        HttpResponse<String> response = post(client, server.uri("/v1/chat/completions"),
                chatRequest("gpt-4o", "\"stream\":true"));

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("content-type")).hasValue("text/event-stream; charset=utf-8");
        assertThat(response.body().getBytes(StandardCharsets.UTF_8)).isEqualTo(fault.body());
        assertThat(response.body()).contains("\nthis line is not a server-sent event field\n")
                .contains("data: {\"choices\":[{\"delta\":{\"content\":\n\n")
                .endsWith("data: [DONE]\n\n");
    }

    @Test
    void onlyMalformedFaultsHaveAFixedBody() {
        assertThatThrownBy(() -> Fault.status(500).body())
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("Fault.status(500) has no fixed body: its body depends on the API called");
    }
}
