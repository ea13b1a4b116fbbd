package io.tollgate.testkit.llm;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class GoDurationFormatTest {

    @ParameterizedTest(name = "{0} ms is written {1}")
    @CsvSource({
        "0, 0s",
        "1, 1ms",
        "999, 999ms",
        "1000, 1s",
        "1500, 1.5s",
        "6500, 6.5s",
        "59999, 59.999s",
        "60000, 1m0s",
        "90000, 1m30s",
        "360000, 6m0s",
        "3600000, 1h0m0s",
        "3723004, 1h2m3.004s",
        "90000000, 25h0m0s",
    })
    void writesDurationsLikeGo(long millis, String expected) {
        assertThat(GoDurationFormat.format(Duration.ofMillis(millis))).isEqualTo(expected);
    }
}
