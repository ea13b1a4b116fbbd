package io.tollgate.gate;

import static io.tollgate.gate.GateTestSupport.CHAT;
import static io.tollgate.gate.GateTestSupport.chat;

import io.tollgate.config.TollgateConfigLoader;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One instance of {@link LiveOverridesFleetTest}'s fleet: a gate on the test's configuration,
 * driven by lines on stdin, answering on stdout.
 *
 * <ul>
 *   <li>{@code watch V}: answers {@code version V at <epoch ms>} once its gate holds version V
 *   <li>{@code calls N T BASE_URL}: N calls as tenant acme on T threads; answers {@code admitted A refused R}
 * </ul>
 */
public final class LiveFleetMember {

  private LiveFleetMember() {}

  public static void main(String[] args) throws Exception {
    try (Gate gate = Gate.create(TollgateConfigLoader.builder().environment(Map.of()).build()
        .load(args[0]))) {
      System.out.println("ready");
      BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        String[] words = line.split(" ");
        switch (words[0]) {
          case "watch" -> {
            long version = Long.parseLong(words[1]);
            while (gate.overrides().current().version() < version) {
              Thread.sleep(5);
            }
            System.out.println("version " + version + " at " + System.currentTimeMillis());
          }
          case "calls" -> System.out.println(calls(gate, Integer.parseInt(words[1]),
              Integer.parseInt(words[2]), words[3]));
          default -> throw new IllegalArgumentException(line);
        }
      }
    }
  }

  private static String calls(Gate gate, int calls, int threads, String baseUrl) throws Exception {
    JdkTransport transport = new JdkTransport(Duration.ofSeconds(15));
    AtomicInteger admitted = new AtomicInteger();
    AtomicInteger refused = new AtomicInteger();
    AtomicInteger left = new AtomicInteger(calls);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    List<Future<?>> running = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      running.add(pool.submit(() -> {
        while (left.getAndDecrement() > 0) {
          try (Tenants.Scope bound = Tenants.bind("acme")) {
            var result = gate.call(chat(baseUrl, "sk-app", CHAT), true, transport);
            if (result instanceof CallResult.Forwarded<HttpResponse<InputStream>>) {
              GateTestSupport.readBody(result);
            }
            (GateTestSupport.status(result) == 200 ? admitted : refused).incrementAndGet();
          }
        }
        return null;
      }));
    }
    for (Future<?> each : running) {
      each.get();
    }
    pool.shutdown();
    return "admitted " + admitted.get() + " refused " + refused.get();
  }
}
