package io.tollgate.testkit.llm;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;

/** Formats server-sent events, one event per returned array, each ending in the blank line. */
final class Sse {

    private Sse() {
    }

    /** {@code data: <json>} — OpenAI's style, no {@code event:} line. */
    static byte[] data(JsonNode payload) {
        return data(Json.text(payload));
    }

    static byte[] data(String payload) {
        return ("data: " + payload + "\n\n").getBytes(StandardCharsets.UTF_8);
    }

    /** {@code event: <name>} then {@code data: <json>} — Anthropic's and the Responses API's style. */
    static byte[] event(String name, JsonNode payload) {
        return ("event: " + name + "\ndata: " + Json.text(payload) + "\n\n").getBytes(StandardCharsets.UTF_8);
    }
}
