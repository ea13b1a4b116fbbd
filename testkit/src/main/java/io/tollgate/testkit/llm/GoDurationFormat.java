package io.tollgate.testkit.llm;

import java.math.BigDecimal;
import java.time.Duration;

/**
 * Formats a duration the way OpenAI writes {@code x-ratelimit-reset-*} values: Go's
 * {@code time.Duration.String()} at millisecond precision ({@code 20ms}, {@code 1s},
 * {@code 1.5s}, {@code 6m0s}, {@code 1h2m3s}). Clients parse these, so the mock must write them
 * exactly like the real thing.
 */
final class GoDurationFormat {

    private GoDurationFormat() {
    }

    static String format(Duration duration) {
        long millis = duration.toMillis();
        if (millis == 0) {
            return "0s";
        }
        if (millis < 1_000) {
            return millis + "ms";
        }
        long hours = millis / 3_600_000;
        long minutes = millis / 60_000 % 60;
        String seconds = BigDecimal.valueOf(millis % 60_000, 3).stripTrailingZeros().toPlainString() + "s";
        if (hours > 0) {
            return hours + "h" + minutes + "m" + seconds;
        }
        if (minutes > 0) {
            return minutes + "m" + seconds;
        }
        return seconds;
    }
}
