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
 * LatencyApp URL (JSON|-) WARM_UP_CALLS MEASURED_CALLS [paired]
 * </pre>
 *
 * <p>{@code paired} also builds a second client from the first with every interceptor of
 * Tollgate's taken out again, and alternates the calls between the two: the difference is the
 * interceptor's alone, in one JVM, with the same JIT and heap (without the agent both clients are
 * the same: the control). Its times are printed as {@code plain-latencies-ns N1 N2 ...}.
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
    boolean paired = args.length > 4 && args[4].equals("paired");
    OkHttpClient client = new OkHttpClient.Builder().readTimeout(20, TimeUnit.SECONDS).build();
    if (paired) {
      pairedCalls(client, url, body, warmUp, measured);
      return;
    }
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
        System.out.println(line("latencies-ns", nanos));
      }
    } finally {
      client.dispatcher().executorService().shutdown();
      client.connectionPool().evictAll();
    }
    System.out.flush();
  }

  private static void pairedCalls(OkHttpClient client, String url, String body, int warmUp,
      int measured) throws IOException {
    OkHttpClient.Builder builder = client.newBuilder();
    builder.interceptors().removeIf(i -> i.getClass().getName().startsWith("io.tollgate."));
    OkHttpClient plain = builder.build();
    System.out.println("first-call " + call(client, url, body) + " " + call(plain, url, body));
    for (int i = 0; i < warmUp; i++) {
      call(client, url, body);
      call(plain, url, body);
    }
    long[] nanos = new long[measured];
    long[] plainNanos = new long[measured];
    for (int i = 0; i < measured; i++) {
      long start = System.nanoTime();
      call(client, url, body);
      long middle = System.nanoTime();
      call(plain, url, body);
      plainNanos[i] = System.nanoTime() - middle;
      nanos[i] = middle - start;
    }
    System.out.println(line("latencies-ns", nanos));
    System.out.println(line("plain-latencies-ns", plainNanos));
    System.out.flush();
    for (OkHttpClient each : new OkHttpClient[] {client, plain}) {
      each.dispatcher().executorService().shutdown();
      each.connectionPool().evictAll();
    }
  }

  private static String line(String name, long[] nanos) {
    StringBuilder line = new StringBuilder(nanos.length * 7).append(name);
    for (long n : nanos) {
      line.append(' ').append(n);
    }
    return line.toString();
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
