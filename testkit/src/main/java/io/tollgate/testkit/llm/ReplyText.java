package io.tollgate.testkit.llm;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/** The assistant's text and how it is cut into streamed chunks. */
final class ReplyText {

    private static final List<String> DEFAULT_WORDS =
            List.of("This", "is", "a", "deterministic", "reply", "from", "the", "mock", "LLM", "server.");

    /** Cuts after each run of whitespace, so chunks are words with their trailing space. */
    private static final Pattern CHUNK_BOUNDARY = Pattern.compile("(?<=\\s)(?=\\S)");

    private ReplyText() {
    }

    /**
     * {@code words} words cycling through "This is a deterministic reply from the mock LLM
     * server.", one word per completion token, so the stream has exactly one content chunk per
     * reported completion token.
     */
    static String defaultText(int words) {
        List<String> text = new ArrayList<>(words);
        for (int i = 0; i < words; i++) {
            text.add(DEFAULT_WORDS.get(i % DEFAULT_WORDS.size()));
        }
        return String.join(" ", text);
    }

    /** Word-sized chunks whose concatenation is exactly {@code text}; none for empty text. */
    static List<String> chunks(String text) {
        if (text.isEmpty()) {
            return List.of();
        }
        return List.of(CHUNK_BOUNDARY.split(text));
    }
}
