package io.tollgate.together.war.host;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * The host's stdin, a pipe from the JVM that started it: a line {@code stop} stops the container
 * as an operator would (the app undeployed, its filter destroyed) and ends the JVM; the end of the
 * stream (that JVM is gone, however it ended) ends it at once.
 */
final class ParentWatch {

  private ParentWatch() {}

  static void start(Runnable stopContainer) {
    Thread watch = new Thread(() -> {
      try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
        String line;
        while ((line = in.readLine()) != null) {
          if (line.equals("stop")) {
            stopContainer.run();
            System.out.println("stopped");
            break;
          }
        }
      } catch (IOException e) {
        // the pipe broke: the parent is gone too
      }
      System.exit(0);
    }, "parent-watch");
    watch.setDaemon(true);
    watch.start();
  }
}
