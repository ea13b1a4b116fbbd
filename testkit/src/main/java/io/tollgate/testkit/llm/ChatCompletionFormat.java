package io.tollgate.testkit.llm;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code chat.completion} JSON and {@code chat.completion.chunk} stream of OpenAI's Chat
 * Completions API, which Azure OpenAI serves unchanged.
 */
final class ChatCompletionFormat {

    private static final String FINGERPRINT = "fp_mock";

    private ChatCompletionFormat() {
    }

    static Reply reply(ApiCall call, String model) {
        Completion completion = Completion.plan(call, call.id("chatcmpl-mock-"), model,
                "max_completion_tokens", "max_tokens");
        if (call.stream()) {
            boolean includeUsage = call.body().path("stream_options").path("include_usage").asBoolean(false);
            return Reply.eventStream(events(completion, includeUsage));
        }
        return Reply.json(200, json(completion));
    }

    static ObjectNode json(Completion completion) {
        ObjectNode message = Json.object();
        message.put("role", "assistant");
        message.put("content", completion.text());
        message.putNull("refusal");
        ObjectNode choice = Json.object();
        choice.put("index", 0);
        choice.set("message", message);
        choice.putNull("logprobs");
        choice.put("finish_reason", finishReason(completion));
        ObjectNode body = header(completion, "chat.completion");
        body.set("choices", Json.array().add(choice));
        body.set("usage", usage(completion));
        return body;
    }

    /**
     * A role chunk, one chunk per text piece, a finish chunk, the usage chunk if asked for, then
     * {@code [DONE]}. As in the real API, with {@code include_usage} every chunk but the usage one
     * carries {@code "usage": null}.
     */
    static List<byte[]> events(Completion completion, boolean includeUsage) {
        List<byte[]> events = new ArrayList<>();
        ObjectNode roleDelta = Json.object();
        roleDelta.put("role", "assistant");
        roleDelta.put("content", "");
        events.add(Sse.data(chunk(completion, roleDelta, null, includeUsage)));
        for (String piece : completion.chunks()) {
            ObjectNode delta = Json.object();
            delta.put("content", piece);
            events.add(Sse.data(chunk(completion, delta, null, includeUsage)));
        }
        events.add(Sse.data(chunk(completion, Json.object(), finishReason(completion), includeUsage)));
        if (includeUsage) {
            ObjectNode usageChunk = header(completion, "chat.completion.chunk");
            usageChunk.set("choices", Json.array());
            usageChunk.set("usage", usage(completion));
            events.add(Sse.data(usageChunk));
        }
        events.add(Sse.data("[DONE]"));
        return events;
    }

    private static ObjectNode chunk(Completion completion, ObjectNode delta, String finishReason,
                                    boolean includeUsage) {
        ObjectNode choice = Json.object();
        choice.put("index", 0);
        choice.set("delta", delta);
        choice.putNull("logprobs");
        choice.put("finish_reason", finishReason);
        ObjectNode chunk = header(completion, "chat.completion.chunk");
        chunk.set("choices", Json.array().add(choice));
        if (includeUsage) {
            chunk.putNull("usage");
        }
        return chunk;
    }

    private static ObjectNode header(Completion completion, String object) {
        ObjectNode node = Json.object();
        node.put("id", completion.id());
        node.put("object", object);
        node.put("created", completion.created());
        node.put("model", completion.model());
        node.put("system_fingerprint", FINGERPRINT);
        return node;
    }

    private static ObjectNode usage(Completion completion) {
        ObjectNode usage = Json.object();
        usage.put("prompt_tokens", completion.promptTokens());
        usage.put("completion_tokens", completion.completionTokens());
        usage.put("total_tokens", completion.totalTokens());
        // Only with a cache hit, so replies of tests that never set cached tokens keep their exact bytes.
        if (completion.cachedPromptTokens() > 0) {
            ObjectNode promptDetails = Json.object();
            promptDetails.put("cached_tokens", completion.cachedPromptTokens());
            usage.set("prompt_tokens_details", promptDetails);
        }
        return usage;
    }

    private static String finishReason(Completion completion) {
        return completion.truncated() ? "length" : "stop";
    }
}
