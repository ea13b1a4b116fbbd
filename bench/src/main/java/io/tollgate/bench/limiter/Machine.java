package io.tollgate.bench.limiter;

import io.tollgate.testkit.redis.RedisServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** What the figures were measured on, printed with them: numbers without a machine mean little. */
record Machine(int cores, String cpu, String redis, String jdk) {

  static Machine describe(RedisServer server) {
    return new Machine(Runtime.getRuntime().availableProcessors(), cpuModel(),
        server.version() + " (" + server.binary() + ")",
        System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
  }

  private static String cpuModel() {
    try {
      return Files.readAllLines(Path.of("/proc/cpuinfo")).stream()
          .filter(line -> line.startsWith("model name"))
          .map(line -> line.substring(line.indexOf(':') + 1).trim())
          .findFirst().orElse("unknown");
    } catch (IOException e) {
      return "unknown";
    }
  }
}
