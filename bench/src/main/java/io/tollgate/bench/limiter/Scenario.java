package io.tollgate.bench.limiter;

/**
 * One way of limiting, set up once and then driven by {@link ClosedLoop} at each thread count.
 * Implementations fill whatever state they need when they are created.
 */
interface Scenario extends AutoCloseable {

  /** The row label of the results tables. */
  String name();

  /** A new operation for one worker thread; each thread gets its own, so it may keep state. */
  Call caller(int thread, int threads);

  /** Called before each run (each thread count): brings the state back to its starting size. */
  default void reset() {}

  /** What the state looked like at the end of the run, for the notes column; empty if nothing. */
  default String afterRun() {
    return "";
  }

  @Override
  default void close() {}

  /** One operation, as the table counts it (one reserve, or one reserve and its settle, ...). */
  @FunctionalInterface
  interface Call {
    /** Runs it; true when the limiter admitted the call. */
    boolean run();
  }
}
