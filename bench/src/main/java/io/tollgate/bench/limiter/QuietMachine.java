package io.tollgate.bench.limiter;

import java.time.Duration;

/**
 * Waits, within a bound, until nothing outside this benchmark is using the CPU. On a shared 2-core
 * machine a build in another terminal can take half of it; a row measured then would be quietly
 * wrong. Rows still disturbed show it in the "Other CPU" column.
 */
final class QuietMachine {

  /** Cores others may use and the machine still counts as quiet. */
  private static final double QUIET_CORES = 0.15;
  private static final Duration SAMPLE = Duration.ofSeconds(1);

  private QuietMachine() {}

  /** Returns as soon as one 1-second sample is quiet, or after {@code atMost}. */
  static void await(Duration atMost) throws InterruptedException {
    long deadline = System.nanoTime() + atMost.toNanos();
    while (true) {
      double machine = CpuClocks.machineBusy();
      double jvm = CpuClocks.jvm();
      Thread.sleep(SAMPLE.toMillis());
      double others = (CpuClocks.machineBusy() - machine) - (CpuClocks.jvm() - jvm);
      if (Double.isNaN(others) || others / SAMPLE.toSeconds() < QUIET_CORES) {
        return;
      }
      if (System.nanoTime() > deadline) {
        System.err.printf("  the machine is busy (%.2f cores used by others); measuring anyway%n",
            others / SAMPLE.toSeconds());
        return;
      }
    }
  }
}
