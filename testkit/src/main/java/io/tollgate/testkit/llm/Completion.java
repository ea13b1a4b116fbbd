package io.tollgate.testkit.llm;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.OptionalInt;

/**
 * What the mock model "generated" for one call, before any API shapes it: the text in its stream
 * chunks and the usage to report.
 *
 * @param cachedPromptTokens the part of {@code promptTokens} served from the prompt cache
 * @param truncated true when the request's max-tokens cap cut the reply short (finish reason
 *                  {@code length} / {@code max_tokens} / {@code incomplete})
 */
record Completion(String id, String model, long created, List<String> chunks, int promptTokens,
                  int cachedPromptTokens, int completionTokens, boolean truncated) {

    /**
     * Plans the reply to {@code call}; {@code maxTokensFields} are the request fields that cap the
     * reply in this API, first present wins.
     */
    static Completion plan(ApiCall call, String id, String model, String... maxTokensFields) {
        ReplySettings settings = call.settings();
        OptionalInt maxTokens = firstIntField(call.body(), maxTokensFields);
        int completionTokens = TokenAccounting.completionTokens(settings.completionTokens(), maxTokens);
        int promptTokens = settings.fixedPromptTokens().orElseGet(() -> TokenAccounting.promptTokens(call.body()));
        int cachedPromptTokens = TokenAccounting.cachedPromptTokens(settings.cachedPromptTokens(), promptTokens);
        String text = settings.replyText().orElseGet(() -> ReplyText.defaultText(completionTokens));
        return new Completion(id, model, call.createdEpochSecond(), ReplyText.chunks(text), promptTokens,
                cachedPromptTokens, completionTokens, completionTokens < settings.completionTokens());
    }

    String text() {
        return String.join("", chunks);
    }

    int totalTokens() {
        return promptTokens + completionTokens;
    }

    private static OptionalInt firstIntField(JsonNode body, String... names) {
        for (String name : names) {
            JsonNode value = body.path(name);
            if (value.isIntegralNumber()) {
                return OptionalInt.of(value.intValue());
            }
        }
        return OptionalInt.empty();
    }
}
