package io.tollgate.testkit.llm;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;

/**
 * The usage numbers a reply reports, computed the same way for every API so tests can predict
 * them exactly. See {@link MockLlmServer} for the rule in user terms.
 */
final class TokenAccounting {

    /** Fields that carry prompt text in the chat, messages and responses request shapes. */
    private static final Set<String> TEXT_FIELDS = Set.of("content", "text", "system", "instructions", "input");

    private static final int CHARACTERS_PER_TOKEN = 4;

    private TokenAccounting() {
    }

    /**
     * {@code max(1, ceil(c / 4))} where {@code c} counts the code points of every string value of a
     * field named {@code content}, {@code text}, {@code system}, {@code instructions} or
     * {@code input}, at any depth of the request body. Roughly what a real tokenizer gives for
     * English, and trivially reproducible in a test.
     */
    static int promptTokens(JsonNode requestBody) {
        long characters = countTextCharacters(requestBody);
        return (int) Math.max(1, (characters + CHARACTERS_PER_TOKEN - 1) / CHARACTERS_PER_TOKEN);
    }

    /** The configured count, unless the request caps the reply at fewer tokens (a negative cap counts as 0). */
    static int completionTokens(int configured, OptionalInt requestedMaximum) {
        if (requestedMaximum.isEmpty()) {
            return configured;
        }
        return Math.min(configured, Math.max(0, requestedMaximum.getAsInt()));
    }

    /**
     * The configured count, capped at the prompt tokens: a provider never reports more of the prompt
     * as cached than the prompt itself, and a prompt counted from the body may be shorter than a test
     * expected.
     */
    static int cachedPromptTokens(int configured, int promptTokens) {
        return Math.min(configured, promptTokens);
    }

    private static long countTextCharacters(JsonNode node) {
        long characters = 0;
        if (node.isObject()) {
            for (Map.Entry<String, JsonNode> field : node.properties()) {
                JsonNode value = field.getValue();
                if (value.isTextual() && TEXT_FIELDS.contains(field.getKey())) {
                    characters += value.textValue().codePointCount(0, value.textValue().length());
                } else {
                    characters += countTextCharacters(value);
                }
            }
        } else if (node.isArray()) {
            for (JsonNode element : node) {
                characters += countTextCharacters(element);
            }
        }
        return characters;
    }
}
