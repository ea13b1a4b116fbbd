package io.tollgate.bench.agent;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The 1-minute load average: the machine is shared, and the figures mean little without it. */
final class Load {

  private Load() {}

  static String now() {
    try {
      return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
    } catch (IOException | RuntimeException e) {
      return "unknown";
    }
  }
}
