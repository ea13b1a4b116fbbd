package io.tollgate.bench.limiter;

import java.time.Duration;

/**
 * Re-measures a row that other processes disturbed, within a time budget for the whole run, and
 * keeps the least disturbed attempt. On a quiet machine nothing is repeated; on a shared one the
 * figures are the best the budget could buy, and the "Other CPU" column says how good that was.
 */
final class Attempts {

  /** Cores used by others during a row above which the row is measured again. */
  static final double DISTURBED_CORES = 0.25;
  static final int MAX_PER_ROW = 3;

  private long budgetNanos;

  Attempts(Duration budget) {
    this.budgetNanos = budget.toNanos();
  }

  /** A measurement that can be taken again. */
  @FunctionalInterface
  interface Row {
    Measurement measure() throws InterruptedException;
  }

  /** Measures the row, again while it was disturbed and the budget allows; the quietest wins. */
  Measurement best(Row row) throws InterruptedException {
    Measurement best = row.measure();
    for (int attempt = 2; attempt <= MAX_PER_ROW && disturbed(best); attempt++) {
      long cost = (long) (best.seconds() * 1e9) * 3 / 2; // the interval plus its warm-up, roughly
      if (budgetNanos < cost) {
        break;
      }
      budgetNanos -= cost;
      System.err.printf("  disturbed (others used %.2f cores): measuring again%n",
          best.otherCores());
      Measurement again = row.measure();
      if (again.otherCores() < best.otherCores()) {
        best = again;
      }
    }
    return best;
  }

  private static boolean disturbed(Measurement m) {
    return m.otherCores() > DISTURBED_CORES;
  }
}
