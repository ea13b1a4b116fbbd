package io.tollgate.testkit.llm;

import java.time.Duration;
import java.util.Objects;

/**
 * The rate-limit state a mock provider reports in its headers: OpenAI and Azure
 * {@code x-ratelimit-{limit,remaining,reset}-{requests,tokens}}, Anthropic
 * {@code anthropic-ratelimit-{requests,tokens}-{limit,remaining,reset}}.
 *
 * <p>The mock does not count requests: it reports these values as configured on every success,
 * and on a scripted 429 it reports them with the exhausted dimension at 0 remaining and resetting
 * after the fault's retry-after.
 *
 * @param requestLimit      requests allowed per window ({@code x-ratelimit-limit-requests})
 * @param remainingRequests requests left in the window ({@code x-ratelimit-remaining-requests})
 * @param requestsReset     time until the request window refills ({@code x-ratelimit-reset-requests})
 * @param tokenLimit        tokens allowed per window ({@code x-ratelimit-limit-tokens})
 * @param remainingTokens   tokens left in the window ({@code x-ratelimit-remaining-tokens})
 * @param tokensReset       time until the token window refills ({@code x-ratelimit-reset-tokens})
 */
public record RateLimits(long requestLimit, long remainingRequests, Duration requestsReset,
                         long tokenLimit, long remainingTokens, Duration tokensReset) {

    /** What a fresh server reports: a roomy account that has just used a little of its quota. */
    public static final RateLimits DEFAULT = new RateLimits(
            10_000, 9_999, Duration.ofMillis(6), 2_000_000, 1_999_980, Duration.ofMillis(1));

    /** Rejects impossible states at once, naming the bad value. */
    public RateLimits {
        Objects.requireNonNull(requestsReset, "requestsReset");
        Objects.requireNonNull(tokensReset, "tokensReset");
        requireRemainingWithinLimit("requests", remainingRequests, requestLimit);
        requireRemainingWithinLimit("tokens", remainingTokens, tokenLimit);
        if (requestsReset.isNegative()) {
            throw new IllegalArgumentException("requestsReset must be >= 0, was " + requestsReset);
        }
        if (tokensReset.isNegative()) {
            throw new IllegalArgumentException("tokensReset must be >= 0, was " + tokensReset);
        }
    }

    /** The same state with one dimension used up until {@code retryAfter} from now. */
    RateLimits exhausted(LimitedDimension dimension, Duration retryAfter) {
        return switch (dimension) {
            case REQUESTS -> new RateLimits(requestLimit, 0, retryAfter, tokenLimit, remainingTokens, tokensReset);
            case TOKENS -> new RateLimits(requestLimit, remainingRequests, requestsReset, tokenLimit, 0, retryAfter);
        };
    }

    private static void requireRemainingWithinLimit(String dimension, long remaining, long limit) {
        if (limit <= 0) {
            throw new IllegalArgumentException(dimension + " limit must be > 0, was " + limit);
        }
        if (remaining < 0 || remaining > limit) {
            throw new IllegalArgumentException(
                    "remaining " + dimension + " must be within 0.." + limit + ", was " + remaining);
        }
    }
}
