package io.tollgate.bench.limiter;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import redis.clients.jedis.Jedis;

/**
 * CPU time of the parties of a run: redis-server, this JVM, the child processes this JVM waited for
 * (redis-benchmark), and the whole machine. On 2 cores they compete, so CPU explains most of what
 * throughput does not; the machine's total also shows CPU taken by processes outside the benchmark,
 * which would otherwise silently lower its figures.
 */
final class CpuClocks {

  /** Linux's USER_HZ: /proc reports child CPU in ticks of 10 ms. */
  private static final double CLOCK_TICKS_PER_SECOND = 100;

  private CpuClocks() {}

  /** redis-server's user + system CPU, seconds, from INFO cpu. */
  static double redis(Jedis admin) {
    double seconds = 0;
    for (String line : admin.info("cpu").split("\r?\n")) {
      if (line.startsWith("used_cpu_sys:") || line.startsWith("used_cpu_user:")) {
        seconds += Double.parseDouble(line.substring(line.indexOf(':') + 1).trim());
      }
    }
    return seconds;
  }

  /** This JVM's CPU, seconds, all threads. */
  static double jvm() {
    var os = (com.sun.management.OperatingSystemMXBean)
        ManagementFactory.getOperatingSystemMXBean();
    return os.getProcessCpuTime() / 1e9;
  }

  /** Busy CPU of all cores (not idle, not in I/O wait), seconds, from /proc/stat; NaN off Linux. */
  static double machineBusy() {
    try {
      // cpu  user nice system idle iowait irq softirq steal ...
      String[] fields = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
      long busy = 0;
      for (int i : new int[] {1, 2, 3, 6, 7, 8}) {
        busy += Long.parseLong(fields[i]);
      }
      return busy / CLOCK_TICKS_PER_SECOND;
    } catch (IOException | RuntimeException e) {
      return Double.NaN;
    }
  }

  /**
   * CPU of the children this JVM has reaped, seconds (cutime + cstime of /proc/self/stat): the
   * kernel adds a child's CPU there once the parent has waited for it, so the difference around one
   * redis-benchmark run is that run's CPU. NaN off Linux.
   */
  static double reapedChildren() {
    try {
      String stat = Files.readString(Path.of("/proc/self/stat"));
      // fields after the command name, which is in parentheses and may hold spaces; field 3 first
      String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      long cutime = Long.parseLong(fields[16 - 3]);
      long cstime = Long.parseLong(fields[17 - 3]);
      return (cutime + cstime) / CLOCK_TICKS_PER_SECOND;
    } catch (IOException | RuntimeException e) {
      return Double.NaN;
    }
  }
}
