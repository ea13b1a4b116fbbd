package io.tollgate.testkit.llm;

import java.time.Duration;

/** The {@code retry-after} header value every provider uses: whole seconds. */
final class RetryAfter {

    private RetryAfter() {
    }

    /** Rounded up, so a client that waits this long is never early. */
    static long seconds(Duration retryAfter) {
        return (retryAfter.toMillis() + 999) / 1000;
    }
}
