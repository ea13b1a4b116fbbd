package io.tollgate.samples.legacy;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An ordinary app that calls an OpenAI-style chat API, written as if Tollgate did not exist: it
 * has no Tollgate dependency and is limited only when started with {@code -javaagent}.
 *
 * <p>For each client of {@code --clients} it runs {@code --threads} worker threads; each makes
 * chat calls one after another (every second one streamed) until {@code --duration} has passed or
 * it has made {@code --calls}, and prints one line per call on stdout (see {@link CallLine}). The
 * first line is {@code start clients=... threads=N}, the last {@code done calls=N}.
 *
 * <pre>
 * java [-javaagent:tollgate-agent.jar=config=tollgate.yaml] -jar legacy-agent-app.jar \
 *     --base-url http://127.0.0.1:9001 --api-key sk-... --clients okhttp,jdk,apache --duration 30s
 * </pre>
 */
public final class LegacyChatApp {

  private LegacyChatApp() {}

  public static void main(String[] args) throws Exception {
    AppOptions options;
    try {
      options = AppOptions.parse(args, System.getenv());
    } catch (IllegalArgumentException e) {
      System.err.println("legacy-agent-app: " + e.getMessage());
      System.err.println(AppOptions.USAGE);
      System.exit(2);
      return;
    }
    int calls = run(options, System.out);
    System.out.println("done calls=" + calls);
    System.out.flush();
  }

  /** Runs every worker to its end; returns how many calls were made. */
  static int run(AppOptions options, PrintStream out) throws Exception {
    List<ChatClient> clients = new ArrayList<>();
    for (String name : options.clients()) {
      clients.add(ChatClient.named(name, options));
    }
    out.println("start clients=" + String.join(",", options.clients()) + " threads=" + options.threads());
    out.flush();
    AtomicInteger total = new AtomicInteger();
    long deadline = System.nanoTime() + options.duration().toNanos();
    List<Thread> workers = new ArrayList<>();
    for (ChatClient client : clients) {
      for (int t = 1; t <= options.threads(); t++) {
        Worker worker = new Worker(client, t, options, deadline, out, total);
        Thread thread = new Thread(worker, client.name() + "-" + t);
        workers.add(thread);
        thread.start();
      }
    }
    for (Thread worker : workers) {
      worker.join();
    }
    for (ChatClient client : clients) {
      client.close();
    }
    return total.get();
  }
}
