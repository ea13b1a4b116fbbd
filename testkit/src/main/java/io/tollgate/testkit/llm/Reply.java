package io.tollgate.testkit.llm;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A complete HTTP answer decided before anything is written: status, headers in order, and the
 * body in the parts it is flushed in (one part for JSON, one per event for a stream).
 *
 * @param streamed true for a stream: no {@code Content-Length}, each part flushed on its own
 */
record Reply(int status, Map<String, String> headers, List<byte[]> parts, boolean streamed) {

    static final String JSON = "application/json";
    static final String EVENT_STREAM = "text/event-stream; charset=utf-8";

    Reply {
        headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
        parts = List.copyOf(parts);
    }

    static Reply json(int status, JsonNode body) {
        return json(status, Json.bytes(body));
    }

    static Reply json(int status, byte[] body) {
        return new Reply(status, Map.of("content-type", JSON), List.of(body), false);
    }

    static Reply eventStream(List<byte[]> events) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("content-type", EVENT_STREAM);
        headers.put("cache-control", "no-cache");
        return new Reply(200, headers, events, true);
    }

    /** This reply with {@code extra} headers added (replacing any of the same name). */
    Reply withHeaders(Map<String, String> extra) {
        Map<String, String> merged = new LinkedHashMap<>(headers);
        merged.putAll(extra);
        return new Reply(status, merged, parts, streamed);
    }

    int bodyLength() {
        return parts.stream().mapToInt(part -> part.length).sum();
    }
}
