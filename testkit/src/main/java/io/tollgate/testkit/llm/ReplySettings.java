package io.tollgate.testkit.llm;

import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * How a server answers successful calls; one immutable snapshot is read per request, so a test
 * changing a setting never sees a half-applied change.
 *
 * @param replyText          the assistant text; empty means {@link ReplyText#defaultText(int)}
 * @param fixedPromptTokens  prompt tokens to report; empty means {@link TokenAccounting#promptTokens}
 * @param cachedPromptTokens prompt tokens to report as read from the prompt cache, at most the prompt tokens
 * @param completionTokens   completion tokens to report unless the request's max tokens is smaller
 * @param chunkDelay         pause between two streamed events
 * @param expectedApiKey     the key every call must carry; empty means any key (or none, where allowed)
 * @param rateLimits         values of the rate-limit headers
 */
record ReplySettings(Optional<String> replyText, OptionalInt fixedPromptTokens, int cachedPromptTokens,
                     int completionTokens, Duration chunkDelay, Optional<String> expectedApiKey,
                     RateLimits rateLimits) {

    static final ReplySettings DEFAULTS = new ReplySettings(Optional.empty(), OptionalInt.empty(), 0,
            MockLlmServer.DEFAULT_COMPLETION_TOKENS, Duration.ZERO, Optional.empty(), RateLimits.DEFAULT);

    ReplySettings withReplyText(String text) {
        return new ReplySettings(Optional.of(text), fixedPromptTokens, cachedPromptTokens, completionTokens,
                chunkDelay, expectedApiKey, rateLimits);
    }

    ReplySettings withUsage(int promptTokens, int completionTokens) {
        return new ReplySettings(replyText, OptionalInt.of(promptTokens), cachedPromptTokens, completionTokens,
                chunkDelay, expectedApiKey, rateLimits);
    }

    ReplySettings withCachedPromptTokens(int cached) {
        return new ReplySettings(replyText, fixedPromptTokens, cached, completionTokens, chunkDelay,
                expectedApiKey, rateLimits);
    }

    ReplySettings withChunkDelay(Duration delay) {
        return new ReplySettings(replyText, fixedPromptTokens, cachedPromptTokens, completionTokens, delay,
                expectedApiKey, rateLimits);
    }

    ReplySettings withExpectedApiKey(String apiKey) {
        return new ReplySettings(replyText, fixedPromptTokens, cachedPromptTokens, completionTokens, chunkDelay,
                Optional.of(apiKey), rateLimits);
    }

    ReplySettings withRateLimits(RateLimits limits) {
        return new ReplySettings(replyText, fixedPromptTokens, cachedPromptTokens, completionTokens, chunkDelay,
                expectedApiKey, limits);
    }
}
