package io.tollgate.testkit.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** The JDK HttpClient calls and parsing the tests share. */
final class LlmCalls {

    static final Duration TIMEOUT = Duration.ofSeconds(5);

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private LlmCalls() {
    }

    static HttpClient http1Client() {
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(TIMEOUT).build();
    }

    /** POSTs {@code json} with the given header name/value pairs. */
    static HttpResponse<String> post(HttpClient client, URI uri, String json, String... headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(TIMEOUT)
                .header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json));
        if (headers.length > 0) {
            request.headers(headers);
        }
        return send(client, request.build());
    }

    static HttpResponse<String> get(HttpClient client, URI uri) {
        return send(client, HttpRequest.newBuilder(uri).timeout(TIMEOUT).GET().build());
    }

    static HttpResponse<String> send(HttpClient client, HttpRequest request) {
        try {
            return client.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static JsonNode json(String text) {
        try {
            return MAPPER.readTree(text);
        } catch (IOException e) {
            throw new UncheckedIOException("not JSON: " + text, e);
        }
    }

    /** One server-sent event: {@code event} is null when the event had no {@code event:} line. */
    record SseEvent(String event, String data) {

        JsonNode json() {
            return LlmCalls.json(data);
        }
    }

    /** Parses a complete {@code text/event-stream} body, failing on anything but event/data lines. */
    static List<SseEvent> events(String body) {
        if (!body.endsWith("\n\n")) {
            throw new AssertionError("stream does not end with a blank line: " + body);
        }
        List<SseEvent> events = new ArrayList<>();
        for (String block : body.substring(0, body.length() - 2).split("\n\n", -1)) {
            String event = null;
            String data = null;
            for (String line : block.split("\n")) {
                if (line.startsWith("event: ")) {
                    event = line.substring("event: ".length());
                } else if (line.startsWith("data: ")) {
                    data = line.substring("data: ".length());
                } else {
                    throw new AssertionError("unexpected SSE line '" + line + "' in " + body);
                }
            }
            events.add(new SseEvent(event, data));
        }
        return events;
    }

    /**
     * The OpenAI chat request the tests send, with optional extra top-level fields. Its prompt is
     * 9 + 23 characters, so the mock reports 8 prompt tokens.
     */
    static String chatRequest(String model, String extraFields) {
        return "{\"model\":\"" + model + "\",\"messages\":["
                + "{\"role\":\"system\",\"content\":\"Be brief.\"},"
                + "{\"role\":\"user\",\"content\":\"Say hello to the world.\"}]"
                + (extraFields.isEmpty() ? "" : "," + extraFields) + "}";
    }

    /** A minimal Anthropic messages request, not streamed. */
    static final String ANTHROPIC_REQUEST =
            "{\"model\":\"claude-haiku-4-5\",\"max_tokens\":100,\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}]}";

    /** The headers Anthropic requires. */
    static final String[] ANTHROPIC_HEADERS = {"x-api-key", "sk-ant-test", "anthropic-version", "2023-06-01"};

    /** The default reply text for 20 completion tokens. */
    static final String DEFAULT_REPLY = "This is a deterministic reply from the mock LLM server. "
            + "This is a deterministic reply from the mock LLM server.";
}
