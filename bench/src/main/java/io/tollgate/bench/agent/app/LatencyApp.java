package io.tollgate.bench.agent.app;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.concurrent.TimeUnit;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;

/**
 * The app the agent benchmark forks: plain OkHttp, nothing of Tollgate on its class path (the
 * benchmark runs it from its own class file, beside the OkHttp jars). It says when {@code main}
 * is entered and when the first call has returned, then makes the same call over and over on one
 * thread and prints each measured call's time.
 *
 * <pre>
 * LatencyApp URL (JSON|-) WARM_UP_CALLS MEASURED_CALLS
 * </pre>
 *
 * Output, one line each: {@code main}, {@code first-call STATUS}, {@code cpu-ms N} (CPU time the
 * JVM has used so far, all threads: on a shared machine less disturbed by the neighbours than
 * wall-clock time), and, when calls were measured, {@code latencies-ns N1 N2 ...}. Every answer must be a 200: anything else ends the app with
 * status 2, since a limited or failed call would measure something else.
 */
public final class LatencyApp {

  private static final MediaType JSON = MediaType.parse("application/json");

  private LatencyApp() {}

  public static void main(String[] args) throws IOException {
    System.out.println("main");
    System.out.flush();
    String url = args[0];
    String body = args[1].equals("-") ? null : args[1];
    int warmUp = Integer.parseInt(args[2]);
    int measured = Integer.parseInt(args[3]);
    OkHttpClient client = new OkHttpClient.Builder().readTimeout(20, TimeUnit.SECONDS).build();
    try {
      System.out.println("first-call " + call(client, url, body));
      System.out.flush();
      System.out.println("cpu-ms " + cpuMillis());
      for (int i = 0; i < warmUp; i++) {
        call(client, url, body);
      }
      long[] nanos = new long[measured];
      for (int i = 0; i < measured; i++) {
        long start = System.nanoTime();
        call(client, url, body);
        nanos[i] = System.nanoTime() - start;
      }
      if (measured > 0) {
        StringBuilder line = new StringBuilder(measured * 7).append("latencies-ns");
        for (long n : nanos) {
          line.append(' ').append(n);
        }
        System.out.println(line);
      }
    } finally {
      client.dispatcher().executorService().shutdown();
      client.connectionPool().evictAll();
    }
    System.out.flush();
  }

  /** User and system time of this process from /proc (Linux), in ms (ticks of 1/100 s, the Linux default); -1 elsewhere. */
  private static long cpuMillis() {
    try {
      String stat = new String(Files.readAllBytes(Paths.get("/proc/self/stat")),
          StandardCharsets.US_ASCII);
      // the fields after the command name, which is in parentheses and may hold spaces
      String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) * 10;
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  /** One call, its body read to the end as an app does; returns the status. */
  private static int call(OkHttpClient client, String url, String body) throws IOException {
    Request.Builder request = new Request.Builder().url(url).header("Authorization", "Bearer app-key");
    if (body != null) {
      request.post(RequestBody.create(JSON, body));
    }
    try (Response response = client.newCall(request.build()).execute()) {
      response.body().bytes();
      if (response.code() != 200) {
        System.err.println("unexpected status " + response.code() + ": " + response.body());
        System.exit(2);
      }
      return response.code();
    }
  }
}
