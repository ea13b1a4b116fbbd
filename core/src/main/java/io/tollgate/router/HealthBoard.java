package io.tollgate.router;

import io.tollgate.router.internal.DefaultHealthBoard;
import java.time.Clock;
import java.util.List;

/**
 * The health of every configured provider, and the order in which fallbacks are tried: best score
 * first, those under {@link HealthConfig#threshold()} left out. Thread-safe.
 *
 * <p>Latency is compared as a ratio to the best p99 among the providers being compared, so its
 * units cancel and a provider is only "slow" relative to the others.
 */
public interface HealthBoard {

  /**
   * A board for {@code providers} (their names, in configuration order: the order ties keep).
   *
   * @throws IllegalArgumentException when a name is repeated
   */
  static HealthBoard of(List<String> providers, HealthConfig config, Clock clock) {
    return new DefaultHealthBoard(providers, config, clock);
  }

  /** A board with {@link HealthConfig#ofDefaults()} on the system clock. */
  static HealthBoard of(List<String> providers) {
    return of(providers, HealthConfig.ofDefaults(), Clock.systemUTC());
  }

  HealthConfig config();

  /**
   * Where calls to {@code provider} are recorded.
   *
   * @throws IllegalArgumentException for a provider not on the board
   */
  ProviderHealth health(String provider);

  /** {@code provider}'s score, its latency compared with every provider on the board. */
  double score(String provider);

  /**
   * {@code candidates} best first, without those scoring under the threshold; equal scores keep
   * the order given (configuration order). Latency is compared among the candidates only.
   *
   * @throws IllegalArgumentException for a candidate not on the board
   */
  List<String> rank(List<String> candidates);

  /** Every provider's score, in board order, compared with the whole board: for the actuator and telemetry. */
  List<HealthScore> scores();
}
