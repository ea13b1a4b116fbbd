package io.tollgate.bench.agent.app;

import java.io.IOException;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
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
 * LatencyApp URL (JSON|-) WARM_UP_CALLS MEASURED_CALLS [paired [reference REDIS_URL RPM TPM]]
 * </pre>
 *
 * <p>{@code -Dlatency-app.start-work-ms=N}: N ms of CPU work on {@code main} before the client is
 * built (see {@link #START_WORK_PROPERTY}).
 *
 * <p>{@code paired} also builds a second client from the first with every interceptor of
 * Tollgate's taken out again, and alternates the calls between the two: the difference is the
 * interceptor's alone, in one JVM, with the same JIT and heap (without the agent both clients are
 * the same: the control). Its times are printed as {@code plain-latencies-ns N1 N2 ...}.
 *
 * <p>{@code reference} (with the agent on Redis) adds a third call to each step: the plain client's
 * call preceded by a reserve of a limiter built as the agent builds its own ({@code
 * AgentLimiterReserve}, loaded by name), its settle handed over when the body is read. Timed
 * together, printed as {@code reference-latencies-ns}: one Redis round trip as the agent makes
 * it, in the same JVM, interleaved with the calls it is compared with. The calls of a step are
 * made in an order drawn at random (pairs too).
 *
 * Output, one line each: {@code main}, {@code first-call STATUS}, {@code cpu-ms N} (CPU time the
 * JVM has used so far, all threads: on a shared machine less disturbed by the neighbours than
 * wall-clock time), {@code warm-up-calls N} (see {@link #warmUp}), {@code end-cpu-ms N} and
 * {@code peak-rss-kb N} as {@code main} ends (unpaired runs), and, when calls were measured,
 * {@code thread-cpu-ns-per-call N [PLAIN]} (the calling thread's CPU time per measured call: the
 * work a call costs the app's thread, whatever the scheduler does with the waits) and
 * {@code latencies-ns N1 N2 ...}. Every answer must be a 200: anything else ends the app with
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
    Supplier<Runnable> reference = args.length > 5 && args[5].equals("reference")
        ? reference(args[6], args[7], args[8]) : null;
    startWork(Long.getLong(START_WORK_PROPERTY, 0));
    OkHttpClient client = new OkHttpClient.Builder().readTimeout(20, TimeUnit.SECONDS).build();
    if (paired) {
      pairedCalls(client, reference, url, body, warmUp, measured);
      return;
    }
    try {
      System.out.println("first-call " + call(client, url, body));
      System.out.flush();
      System.out.println("cpu-ms " + cpuMillis());
      warmUp(warmUp, client, null, null, url, body);
      long[] nanos = new long[measured];
      ThreadMXBean threads = ManagementFactory.getThreadMXBean();
      long cpuFrom = threads.getCurrentThreadCpuTime();
      for (int i = 0; i < measured; i++) {
        long start = System.nanoTime();
        call(client, url, body);
        nanos[i] = System.nanoTime() - start;
      }
      if (measured > 0) {
        System.out.println("thread-cpu-ns-per-call "
            + (threads.getCurrentThreadCpuTime() - cpuFrom) / measured);
        System.out.println(line("latencies-ns", nanos));
      }
    } finally {
      client.dispatcher().executorService().shutdown();
      client.connectionPool().evictAll();
    }
    System.out.println("end-cpu-ms " + cpuMillis());
    System.out.println("peak-rss-kb " + peakRssKb());
    System.out.flush();
  }

  /** The most resident memory this process has held (VmHWM, Linux), in KiB; -1 elsewhere. */
  private static long peakRssKb() {
    try {
      for (String line : Files.readAllLines(Paths.get("/proc/self/status"), StandardCharsets.US_ASCII)) {
        if (line.startsWith("VmHWM:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", ""));
        }
      }
    } catch (IOException | RuntimeException e) {
      // not Linux
    }
    return -1;
  }

  private static void pairedCalls(OkHttpClient client, Supplier<Runnable> reference, String url,
      String body, int warmUp, int measured) throws IOException {
    OkHttpClient.Builder builder = client.newBuilder();
    builder.interceptors().removeIf(i -> i.getClass().getName().startsWith("io.tollgate."));
    OkHttpClient plain = builder.build();
    System.out.println("first-call " + call(client, url, body) + " " + call(plain, url, body));
    warmUp(warmUp, client, plain, reference, url, body);
    int kinds = reference == null ? 2 : 3;
    long[][] nanos = new long[kinds][measured];
    long[] cpu = new long[kinds];
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    // each step in an order drawn at random (seeded): each kind follows each other kind equally
    // often, so what one call leaves behind (a settle handed over, a thread woken) is not always
    // paid by the same kind after it
    Random orders = new Random(42);
    int[] order = new int[kinds];
    for (int i = 0; i < measured; i++) {
      shuffle(order, orders);
      for (int kind : order) {
        long cpuStart = threads.getCurrentThreadCpuTime();
        long start = System.nanoTime();
        callKind(kind, client, plain, reference, url, body);
        nanos[kind][i] = System.nanoTime() - start;
        cpu[kind] += threads.getCurrentThreadCpuTime() - cpuStart;
      }
    }
    StringBuilder cpuLine = new StringBuilder("thread-cpu-ns-per-call");
    for (long each : cpu) {
      cpuLine.append(' ').append(each / measured);
    }
    System.out.println(cpuLine);
    System.out.println(line("latencies-ns", nanos[0]));
    System.out.println(line("plain-latencies-ns", nanos[1]));
    if (reference != null) {
      System.out.println(line("reference-latencies-ns", nanos[2]));
    }
    System.out.flush();
    for (OkHttpClient each : new OkHttpClient[] {client, plain}) {
      each.dispatcher().executorService().shutdown();
      each.connectionPool().evictAll();
    }
    if (reference != null) {
      System.exit(0); // the reference limiter's settle thread and pool
    }
  }

  /** {@code order} becomes 0, 1, ... in an order drawn from {@code random} (Fisher-Yates). */
  private static void shuffle(int[] order, Random random) {
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    for (int i = order.length - 1; i > 0; i--) {
      int j = random.nextInt(i + 1);
      int kept = order[i];
      order[i] = order[j];
      order[j] = kept;
    }
  }

  /** 0: the client as the agent left it; 1: the plain client; 2: a reserve, then the plain client. */
  private static void callKind(int kind, OkHttpClient client, OkHttpClient plain,
      Supplier<Runnable> reference, String url, String body) throws IOException {
    switch (kind) {
      case 0 -> call(client, url, body);
      case 1 -> call(plain, url, body);
      default -> {
        Runnable settle = reference.get();
        call(plain, url, body);
        settle.run();
      }
    }
  }

  @SuppressWarnings("unchecked")
  private static Supplier<Runnable> reference(String redisUrl, String requestsPerMinute,
      String tokensPerMinute) {
    try {
      return (Supplier<Runnable>) Class.forName(LatencyApp.class.getPackageName()
              + ".AgentLimiterReserve")
          .getConstructor(String.class, String.class, String.class)
          .newInstance(redisUrl, requestsPerMinute, tokensPerMinute);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("the reference limiter cannot be built (is the agent on"
          + " Redis attached?)", e);
    }
  }

  /**
   * Milliseconds of the app's own start-up work, on {@code main}'s thread, before it builds its
   * client (0 by default): a service's framework starts before its first LLM call, and the agent
   * starts meanwhile. CPU work, not a sleep, so that the agent's start competes for the cores.
   */
  public static final String START_WORK_PROPERTY = "latency-app.start-work-ms";

  private static void startWork(long millis) {
    long until = System.nanoTime() + millis * 1_000_000L;
    long digits = 0;
    while (System.nanoTime() < until) {
      digits += Long.toString(digits ^ until).length();
    }
    if (digits == 42) {
      System.out.println("(never printed: keeps the work from being optimised away)");
    }
  }

  /** Calls of a warm-up batch, after which the JIT's work is looked at. */
  private static final int BATCH = 2_000;
  /** The JIT counts as done when a batch made it compile for at most this long (all compiler threads). */
  private static final long QUIET_COMPILE_MILLIS = 5;
  /** The most calls a warm-up makes, whatever the JIT does. */
  private static final int MAX_WARM_UP = 200_000;

  /**
   * At least {@code minimum} calls, then batches until the JIT is quiet: calls measured while the
   * compiler threads still work measure the compilation too, and with an agent there is much more
   * code to compile (on 2 cores, 20,000 calls left C2 busy for seconds). Prints
   * {@code warm-up-calls N}. With {@code plain} (and {@code reference}), each step is a call of
   * each kind (the app is copied out as class files of its own: no nested types).
   */
  private static void warmUp(int minimum, OkHttpClient client, OkHttpClient plain,
      Supplier<Runnable> reference, String url, String body) throws IOException {
    CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
    int calls = 0;
    for (; calls < minimum; calls++) {
      step(client, plain, reference, url, body);
    }
    if (minimum > 0 && jit != null && jit.isCompilationTimeMonitoringSupported()) {
      long compiled = jit.getTotalCompilationTime();
      while (calls < MAX_WARM_UP) {
        for (int i = 0; i < BATCH; i++) {
          step(client, plain, reference, url, body);
        }
        calls += BATCH;
        long now = jit.getTotalCompilationTime();
        if (now - compiled <= QUIET_COMPILE_MILLIS) {
          break;
        }
        compiled = now;
      }
    }
    System.out.println("warm-up-calls " + calls);
  }

  private static void step(OkHttpClient client, OkHttpClient plain, Supplier<Runnable> reference,
      String url, String body) throws IOException {
    call(client, url, body);
    if (plain != null) {
      call(plain, url, body);
    }
    if (reference != null) {
      callKind(2, client, plain, reference, url, body);
    }
  }

  static String line(String name, long[] nanos) {
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
