package io.tollgate.testkit.llm;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/** The {@code response} JSON and the typed event stream of OpenAI's Responses API. */
final class ResponsesFormat {

    private ResponsesFormat() {
    }

    static Reply reply(ApiCall call, String model) {
        Completion completion = Completion.plan(call, call.id("resp_mock_"), model, "max_output_tokens");
        return call.stream() ? Reply.eventStream(events(completion)) : Reply.json(200, json(completion));
    }

    static ObjectNode json(Completion completion) {
        ObjectNode response = response(completion, completion.truncated() ? "incomplete" : "completed");
        if (completion.truncated()) {
            ObjectNode details = Json.object();
            details.put("reason", "max_output_tokens");
            response.set("incomplete_details", details);
        }
        response.set("output", Json.array().add(messageItem(completion, "completed", true)));
        response.set("usage", usage(completion));
        return response;
    }

    /**
     * {@code response.created}, {@code response.in_progress}, {@code response.output_item.added},
     * {@code response.content_part.added}, one {@code response.output_text.delta} per text piece,
     * {@code response.output_text.done}, {@code response.content_part.done},
     * {@code response.output_item.done}, then {@code response.completed} (or
     * {@code response.incomplete} when max_output_tokens cut it) carrying the full response with usage.
     */
    static List<byte[]> events(Completion completion) {
        Events events = new Events();
        ObjectNode inProgress = response(completion, "in_progress");
        inProgress.set("output", Json.array());
        events.add("response.created").set("response", inProgress);
        events.add("response.in_progress").set("response", inProgress);

        ObjectNode itemAdded = events.add("response.output_item.added");
        itemAdded.put("output_index", 0);
        itemAdded.set("item", messageItem(completion, "in_progress", false));
        ObjectNode partAdded = events.addInContent("response.content_part.added", completion);
        partAdded.set("part", outputText(""));

        for (String piece : completion.chunks()) {
            events.addInContent("response.output_text.delta", completion).put("delta", piece);
        }
        events.addInContent("response.output_text.done", completion).put("text", completion.text());
        events.addInContent("response.content_part.done", completion).set("part", outputText(completion.text()));
        ObjectNode itemDone = events.add("response.output_item.done");
        itemDone.put("output_index", 0);
        itemDone.set("item", messageItem(completion, "completed", true));

        events.add(completion.truncated() ? "response.incomplete" : "response.completed")
                .set("response", json(completion));
        return events.encode();
    }

    private static ObjectNode response(Completion completion, String status) {
        ObjectNode response = Json.object();
        response.put("id", completion.id());
        response.put("object", "response");
        response.put("created_at", completion.created());
        response.put("status", status);
        response.putNull("error");
        response.putNull("incomplete_details");
        response.put("model", completion.model());
        response.putNull("output");
        response.putNull("usage");
        return response;
    }

    private static ObjectNode messageItem(Completion completion, String status, boolean withText) {
        ObjectNode item = Json.object();
        item.put("type", "message");
        item.put("id", itemId(completion));
        item.put("status", status);
        item.put("role", "assistant");
        item.set("content", withText ? Json.array().add(outputText(completion.text())) : Json.array());
        return item;
    }

    private static ObjectNode outputText(String text) {
        ObjectNode part = Json.object();
        part.put("type", "output_text");
        part.put("text", text);
        part.set("annotations", Json.array());
        return part;
    }

    private static ObjectNode usage(Completion completion) {
        ObjectNode inputDetails = Json.object();
        inputDetails.put("cached_tokens", completion.cachedPromptTokens());
        ObjectNode outputDetails = Json.object();
        outputDetails.put("reasoning_tokens", 0);
        ObjectNode usage = Json.object();
        usage.put("input_tokens", completion.promptTokens());
        usage.set("input_tokens_details", inputDetails);
        usage.put("output_tokens", completion.completionTokens());
        usage.set("output_tokens_details", outputDetails);
        usage.put("total_tokens", completion.totalTokens());
        return usage;
    }

    private static String itemId(Completion completion) {
        return completion.id().replace("resp_", "msg_");
    }

    /** Numbers events as the real stream does; each payload is filled in by the caller, then all are encoded. */
    private static final class Events {
        private final List<ObjectNode> payloads = new ArrayList<>();

        ObjectNode add(String type) {
            ObjectNode payload = Json.object();
            payload.put("type", type);
            payload.put("sequence_number", payloads.size());
            payloads.add(payload);
            return payload;
        }

        ObjectNode addInContent(String type, Completion completion) {
            ObjectNode payload = add(type);
            payload.put("item_id", itemId(completion));
            payload.put("output_index", 0);
            payload.put("content_index", 0);
            return payload;
        }

        List<byte[]> encode() {
            return payloads.stream().map(payload -> Sse.event(payload.get("type").asText(), payload)).toList();
        }
    }
}
