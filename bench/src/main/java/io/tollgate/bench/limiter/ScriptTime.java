package io.tollgate.bench.limiter;

import redis.clients.jedis.Jedis;

/**
 * Time Redis spent running Lua scripts, per script call, from INFO commandstats: the cost of the
 * script itself, without the network and event-loop work that Redis CPU per operation includes.
 * Commands a script calls are counted inside its EVAL / EVALSHA time (and listed again under their
 * own names, which is why only the two script commands are read).
 */
final class ScriptTime {

  private ScriptTime() {}

  /** Starts an interval: CONFIG RESETSTAT zeroes the command statistics (not the CPU counters). */
  static void reset(Jedis admin) {
    admin.configResetStat();
  }

  /** µs per EVAL or EVALSHA since {@link #reset}, or NaN when no script ran. */
  static double microsPerCall(Jedis admin) {
    long[] totals = totals(admin);
    return totals[0] == 0 ? Double.NaN : (double) totals[1] / totals[0];
  }

  /** EVAL and EVALSHA calls since {@link #reset}. */
  static long calls(Jedis admin) {
    return totals(admin)[0];
  }

  /** {calls, µs} of EVAL and EVALSHA since {@link #reset}. */
  private static long[] totals(Jedis admin) {
    long calls = 0;
    long micros = 0;
    for (String line : admin.info("commandstats").split("\r?\n")) {
      if (line.startsWith("cmdstat_evalsha:") || line.startsWith("cmdstat_eval:")) {
        // cmdstat_evalsha:calls=200000,usec=4880633,usec_per_call=24.40,...
        for (String field : line.substring(line.indexOf(':') + 1).split(",")) {
          if (field.startsWith("calls=")) {
            calls += Long.parseLong(field.substring("calls=".length()));
          } else if (field.startsWith("usec=")) {
            micros += Long.parseLong(field.substring("usec=".length()));
          }
        }
      }
    }
    return new long[] {calls, micros};
  }
}
