package io.tollgate.router;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Scores from the decayed figures, and the order in which fallbacks are tried. */
class HealthBoardTest {

  private final SteppedClock clock = new SteppedClock();
  private final HealthBoard board = HealthBoard.of(List.of("a", "b", "c"), HealthConfig.ofDefaults(), clock);

  @Test
  void ranksBestFirstAsTheScoresSay() {
    successes("a", 4, 256); // twice the best p99: latency factor 0.5 + 0.5 × ½
    successes("b", 4, 128);
    board.health("b").recordFailure(); // success rate (4 + 1) / (4 + 1 + 1)
    successes("c", 4, 128);

    assertThat(board.score("a")).isEqualTo(0.75);
    assertThat(board.score("b")).isEqualTo(5.0 / 6.0);
    assertThat(board.score("c")).isEqualTo(1.0);
    assertThat(board.rank(List.of("a", "b", "c"))).containsExactly("c", "b", "a");
  }

  @Test
  void skipsAProviderScoringUnderTheThreshold() {
    failures("a", 5); // 1 / 6 < 0.2
    failures("b", 3); // 1 / 4

    assertThat(board.score("a")).isEqualTo(1.0 / 6.0);
    assertThat(board.rank(List.of("a", "b"))).containsExactly("b");
  }

  @Test
  void aSkippedProviderIsTriedAgainOnceItsFailuresFade() {
    failures("a", 5);
    assertThat(board.rank(List.of("a"))).isEmpty();

    clock.advance(Duration.ofSeconds(60)); // 2.5 failures left: 1 / 3.5
    assertThat(board.score("a")).isEqualTo(1.0 / 3.5);
    assertThat(board.rank(List.of("a"))).containsExactly("a");
  }

  @Test
  void aLowQuotaLowersTheScoreAndAnExhaustedOneSkipsTheProvider() {
    board.health("b").recordQuota(QuotaSource.PROVIDER, 0.5);
    board.health("c").recordQuota(QuotaSource.LIMITER, 0.0);

    assertThat(board.score("b")).isEqualTo(0.5);
    assertThat(board.score("c")).isEqualTo(0.0);
    assertThat(board.rank(List.of("c", "b", "a"))).containsExactly("a", "b");
  }

  @Test
  void tiesKeepTheOrderGiven() {
    assertThat(board.rank(List.of("c", "a", "b"))).containsExactly("c", "a", "b");

    successes("a", 3, 128);
    successes("b", 3, 128);
    successes("c", 3, 128);
    assertThat(board.rank(List.of("b", "c", "a"))).containsExactly("b", "c", "a");
  }

  @Test
  void latencyIsComparedAmongTheCandidatesOnly() {
    HealthBoard byLatency = HealthBoard.of(List.of("a", "b", "c"),
        HealthConfig.builder().latencyWeight(1.0).threshold(0.3).build(), clock);
    successes(byLatency, "a", 1, 256);
    successes(byLatency, "b", 1, 512);
    successes(byLatency, "c", 1, 128);

    // Beside c, b is a quarter as fast and skipped; beside a alone, it is half as fast and kept.
    assertThat(byLatency.scores()).extracting(HealthScore::score).containsExactly(0.5, 0.25, 1.0);
    assertThat(byLatency.rank(List.of("a", "b", "c"))).containsExactly("c", "a");
    assertThat(byLatency.rank(List.of("b", "a"))).containsExactly("a", "b");
  }

  @Test
  void latencyAloneAtMostHalvesAScoreByDefault() {
    successes("a", 1, 256);
    successes("b", 1, 512);
    successes("c", 1, 128);

    assertThat(board.scores()).extracting(HealthScore::latencyFactor).containsExactly(0.75, 0.625, 1.0);
  }

  @Test
  void aProviderWithoutLatencyCountsAsTheFastest() {
    successes("b", 1, 512);

    assertThat(board.score("a")).isEqualTo(1.0);
    assertThat(board.score("b")).isEqualTo(1.0);
  }

  @Test
  void weightsDecideHowMuchLatencyAndQuotaCount() {
    HealthBoard strict = HealthBoard.of(List.of("a", "b"),
        HealthConfig.builder().latencyWeight(1.0).quotaWeight(0.5).threshold(0.0).build(), clock);
    successes(strict, "a", 1, 128);
    successes(strict, "b", 1, 512);
    strict.health("b").recordQuota(QuotaSource.LIMITER, 0.0);

    assertThat(strict.score("b")).isEqualTo(0.125); // 128/512 × (0.5 + 0.5 × 0)
    assertThat(strict.rank(List.of("b", "a"))).containsExactly("a", "b");
  }

  @Test
  void scoresListEveryProviderInBoardOrderWithTheFiguresBehindThem() {
    successes("b", 3, 128);
    failures("b", 1);
    board.health("b").recordQuota(QuotaSource.LIMITER, 0.5);

    HealthScore b = board.scores().get(1);
    assertThat(board.scores()).extracting(HealthScore::provider).containsExactly("a", "b", "c");
    assertThat(b.health().successes()).isEqualTo(3.0);
    assertThat(b.health().failures()).isEqualTo(1.0);
    assertThat(b.health().successRate()).isEqualTo(0.8);
    assertThat(b.health().p99()).contains(Duration.ofMillis(128));
    assertThat(b.latencyFactor()).isEqualTo(1.0);
    assertThat(b.quotaFactor()).isEqualTo(0.5);
    assertThat(b.score()).isEqualTo(0.4);
  }

  @Test
  void rejectsProvidersNotOnTheBoard() {
    assertThatThrownBy(() -> board.rank(List.of("a", "z")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("no provider z on the board; known: [a, b, c]");
    assertThatThrownBy(() -> HealthBoard.of(List.of("a", "a")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("provider a is on the board twice");
  }

  private void successes(String provider, int times, long millis) {
    successes(board, provider, times, millis);
  }

  private static void successes(HealthBoard board, String provider, int times, long millis) {
    for (int i = 0; i < times; i++) {
      board.health(provider).recordSuccess(Duration.ofMillis(millis));
    }
  }

  private void failures(String provider, int times) {
    for (int i = 0; i < times; i++) {
      board.health(provider).recordFailure();
    }
  }
}
