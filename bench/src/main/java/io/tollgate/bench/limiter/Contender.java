package io.tollgate.bench.limiter;

import java.time.Duration;

/**
 * One line of the comparison: a limiter driven by this JVM ({@link ClosedLoop#driving}) or the
 * redis-benchmark ceiling. Set up once; measured once per round at every concurrency.
 */
interface Contender extends AutoCloseable {

  String name();

  /**
   * Measures {@code measure} at {@code concurrency} threads or connections, after {@code warmup}.
   */
  Measurement measure(int concurrency, Duration warmup, Duration measure)
      throws InterruptedException;

  @Override
  default void close() {}
}
