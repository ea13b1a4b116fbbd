package io.tollgate.testkit.llm;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/** The {@code message} JSON and the event stream of Anthropic's Messages API. */
final class AnthropicMessageFormat {

    private AnthropicMessageFormat() {
    }

    static Reply reply(ApiCall call) {
        Completion completion = Completion.plan(call, call.id("msg_mock_"), call.body().path("model").asText(),
                "max_tokens");
        return call.stream() ? Reply.eventStream(events(completion)) : Reply.json(200, json(completion));
    }

    static ObjectNode json(Completion completion) {
        ObjectNode text = Json.object();
        text.put("type", "text");
        text.put("text", completion.text());
        ObjectNode message = message(completion);
        message.set("content", Json.array().add(text));
        message.put("stop_reason", stopReason(completion));
        message.set("usage", usage(completion, completion.completionTokens()));
        return message;
    }

    /**
     * {@code message_start} (output_tokens 1, as the real API reports before generating),
     * {@code content_block_start}, {@code ping}, one {@code content_block_delta} per text piece,
     * {@code content_block_stop}, {@code message_delta} with the stop reason and final output
     * tokens, {@code message_stop}.
     */
    static List<byte[]> events(Completion completion) {
        List<byte[]> events = new ArrayList<>();

        ObjectNode startMessage = message(completion);
        startMessage.set("content", Json.array());
        startMessage.putNull("stop_reason");
        startMessage.set("usage", usage(completion, 1));
        ObjectNode messageStart = typed("message_start");
        messageStart.set("message", startMessage);
        events.add(Sse.event("message_start", messageStart));

        ObjectNode emptyBlock = Json.object();
        emptyBlock.put("type", "text");
        emptyBlock.put("text", "");
        ObjectNode blockStart = typed("content_block_start");
        blockStart.put("index", 0);
        blockStart.set("content_block", emptyBlock);
        events.add(Sse.event("content_block_start", blockStart));

        events.add(Sse.event("ping", typed("ping")));

        for (String piece : completion.chunks()) {
            ObjectNode delta = Json.object();
            delta.put("type", "text_delta");
            delta.put("text", piece);
            ObjectNode blockDelta = typed("content_block_delta");
            blockDelta.put("index", 0);
            blockDelta.set("delta", delta);
            events.add(Sse.event("content_block_delta", blockDelta));
        }

        ObjectNode blockStop = typed("content_block_stop");
        blockStop.put("index", 0);
        events.add(Sse.event("content_block_stop", blockStop));

        ObjectNode stop = Json.object();
        stop.put("stop_reason", stopReason(completion));
        stop.putNull("stop_sequence");
        ObjectNode outputUsage = Json.object();
        outputUsage.put("output_tokens", completion.completionTokens());
        ObjectNode messageDelta = typed("message_delta");
        messageDelta.set("delta", stop);
        messageDelta.set("usage", outputUsage);
        events.add(Sse.event("message_delta", messageDelta));

        events.add(Sse.event("message_stop", typed("message_stop")));
        return events;
    }

    private static ObjectNode message(Completion completion) {
        ObjectNode message = Json.object();
        message.put("id", completion.id());
        message.put("type", "message");
        message.put("role", "assistant");
        message.put("model", completion.model());
        message.putNull("content");
        message.putNull("stop_reason");
        message.putNull("stop_sequence");
        message.putNull("usage");
        return message;
    }

    private static ObjectNode usage(Completion completion, int outputTokens) {
        ObjectNode usage = Json.object();
        // Unlike OpenAI, Anthropic's input_tokens leaves out the tokens read from the cache.
        usage.put("input_tokens", completion.promptTokens() - completion.cachedPromptTokens());
        usage.put("output_tokens", outputTokens);
        usage.put("cache_creation_input_tokens", 0);
        usage.put("cache_read_input_tokens", completion.cachedPromptTokens());
        return usage;
    }

    private static ObjectNode typed(String type) {
        ObjectNode node = Json.object();
        node.put("type", type);
        return node;
    }

    private static String stopReason(Completion completion) {
        return completion.truncated() ? "max_tokens" : "end_turn";
    }
}
