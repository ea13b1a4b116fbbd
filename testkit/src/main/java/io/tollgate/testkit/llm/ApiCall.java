package io.tollgate.testkit.llm;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One call to an LLM API as the endpoint sees it: the recorded request, its body parsed (a
 * {@code MissingNode} when it was not JSON) and the settings in force when it arrived.
 */
record ApiCall(RecordedRequest request, JsonNode body, ReplySettings settings) {

    static ApiCall of(RecordedRequest request, ReplySettings settings) {
        return new ApiCall(request, Json.parseOrMissing(request.body()), settings);
    }

    boolean stream() {
        return body.path("stream").asBoolean(false);
    }

    /** Ids are derived from the request's sequence number, so they are predictable in tests. */
    String id(String prefix) {
        return prefix + request.sequenceNumber();
    }

    long createdEpochSecond() {
        return request.arrivedAt().getEpochSecond();
    }
}
