package io.tollgate.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Durations: a whole number and ms, s, m, h or d. */
class DurationsTest {

  @ParameterizedTest
  @CsvSource({
      "100ms, PT0.1S",
      "2s, PT2S",
      "10m, PT10M",
      "1h, PT1H",
      "1d, PT24H",
      "0s, PT0S",
      "1500ms, PT1.5S",
      "-5s, PT-5S",
  })
  void readsEveryUnit(String text, String expected) {
    assertThat(Durations.parse(text)).isEqualTo(Duration.parse(expected));
  }

  @Test
  void readsEveryUnitInAConfiguration() {
    TollgateConfig config = Loaders.yaml("""
        tollgate:
          max-wait: 250ms
          redis:
            url: redis://localhost:6379
            timeout: 2s
            reservation-ttl: 1h
          breaker:
            window: 1m
            open-for: 1d
        """);

    assertThat(config.maxWait()).isEqualTo(Duration.ofMillis(250));
    assertThat(config.redis().orElseThrow().timeout()).isEqualTo(Duration.ofSeconds(2));
    assertThat(config.redis().orElseThrow().reservationTtl()).isEqualTo(Duration.ofHours(1));
    assertThat(config.breaker().window()).isEqualTo(Duration.ofMinutes(1));
    assertThat(config.breaker().openFor()).isEqualTo(Duration.ofDays(1));
  }

  @Test
  void rejectsABareNumber() {
    assertThatThrownBy(() -> Loaders.yaml("tollgate:\n  max-wait: 2\n"))
        .isInstanceOf(ConfigException.class)
        .hasMessage("tollgate.max-wait must be a duration: a whole number with a unit ms, s, m, h or d"
            + " (100ms, 2s, 10m, 1h, 1d); a bare number has no unit, was 2");
  }

  @ParameterizedTest
  @CsvSource({"1.5s", "2w", "2 s", "PT2S", "s", "2S"})
  void rejectsWhatIsNotAWholeNumberAndAUnit(String text) {
    assertThatThrownBy(() -> Loaders.yaml("tollgate:\n  breaker:\n    window: '" + text + "'\n"))
        .hasMessage("tollgate.breaker.window must be a duration: a whole number with a unit ms, s, m, h"
            + " or d (100ms, 2s, 10m, 1h, 1d), was " + text);
  }

  @Test
  void rejectsAnEmptyDuration() {
    assertThatThrownBy(() -> Loaders.properties(Map.of("tollgate.max-wait", "")))
        .hasMessage("tollgate.max-wait must be a duration: a whole number with a unit ms, s, m, h"
            + " or d (100ms, 2s, 10m, 1h, 1d), was \"\"");
  }

  @Test
  void rejectsADurationTooLargeToHold() {
    assertThatThrownBy(() -> Loaders.yaml("tollgate:\n  max-wait: 9999999999999999999d\n"))
        .hasMessage("tollgate.max-wait is too large a duration, was 9999999999999999999d");
  }

  @ParameterizedTest
  @CsvSource({
      "PT0.1S, 100ms",
      "PT2S, 2s",
      "PT90S, 90s",
      "PT10M, 10m",
      "PT1H, 1h",
      "PT48H, 2d",
      "PT0S, 0s",
      "PT-1S, -1s",
      "PT0.000001S, PT0.000001S",
  })
  void printsInTheLargestWholeUnit(String duration, String expected) {
    assertThat(Durations.format(Duration.parse(duration))).isEqualTo(expected);
  }
}
