package io.tollgate.bench.limiter;

/**
 * What one run of one scenario at one concurrency measured. Latencies are in µs; CPU is in
 * seconds spent during the measured interval (NaN where it could not be read).
 *
 * @param concurrency worker threads, or redis-benchmark's connections ({@code -c})
 * @param ops operations completed in the measured interval
 * @param denied operations the limiter denied (should be 0: see {@link Workload})
 * @param errors operations that threw (timeouts, ...)
 * @param redisCpu CPU time redis-server used (user + system)
 * @param clientCpu CPU time the load generator used: this JVM, or the redis-benchmark process
 * @param machineCpu CPU time the whole machine used, both of the above and anything else
 * @param scriptMicros Redis time per script call (EVAL / EVALSHA), µs; NaN when no script ran
 * @param scriptCalls script calls (EVAL / EVALSHA) Redis ran in the measured interval
 * @param note what the state looked like, or how the figure was obtained
 */
record Measurement(
    String scenario,
    int concurrency,
    long ops,
    double seconds,
    double p50,
    double p99,
    double p999,
    double max,
    long denied,
    long errors,
    double redisCpu,
    double clientCpu,
    double machineCpu,
    double scriptMicros,
    long scriptCalls,
    String note) {

  Measurement withNote(String note) {
    return new Measurement(scenario, concurrency, ops, seconds, p50, p99, p999, max, denied, errors,
        redisCpu, clientCpu, machineCpu, scriptMicros, scriptCalls, note);
  }

  double opsPerSecond() {
    return ops / seconds;
  }

  /** Cores redis-server kept busy: 1.0 means its main thread never rested. */
  double redisCores() {
    return redisCpu / seconds;
  }

  double clientCores() {
    return clientCpu / seconds;
  }

  /**
   * Cores kept busy by neither redis-server nor the load generator: other processes on the
   * machine (JIT and GC threads count as the client). Above a few hundredths, the run was
   * disturbed.
   */
  double otherCores() {
    return Math.max(0, machineCpu - redisCpu - clientCpu) / seconds;
  }

  /** Redis CPU per operation, µs: the server-side cost, independent of the client. */
  double redisMicrosPerOp() {
    return redisCpu * 1e6 / ops;
  }

  /** Script calls Redis ran per operation: 1 for a reserve, 2 for reserve + settle, less leased. */
  double scriptCallsPerOp() {
    return (double) scriptCalls / ops;
  }
}
