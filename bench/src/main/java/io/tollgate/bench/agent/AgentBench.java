package io.tollgate.bench.agent;

import io.tollgate.bench.agent.app.AgentLimiterReserve;
import io.tollgate.bench.agent.app.LatencyApp;
import io.tollgate.bench.agent.app.ReserveBeforeCallApp;
import io.tollgate.limiter.Decision;
import io.tollgate.limiter.Limit;
import io.tollgate.limiter.Limits;
import io.tollgate.limiter.RateLimiter;
import io.tollgate.limiter.Subject;
import io.tollgate.redis.RedisConnection;
import io.tollgate.testkit.redis.RedisServer;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import redis.clients.jedis.Jedis;

/**
 * What the agent adds to an OkHttp app: per call (the same calls to the same loopback server,
 * without the agent and with it in three configurations, side by side in each round; with {@code
 * --before-jar} the limiter setups on that jar too) and at
 * start-up (time to {@code main} and to the end of the first call). Every run is a child JVM.
 * Progress on stderr, markdown tables on stdout; options: {@link AgentBenchOptions}.
 */
public final class AgentBench {

  static final String CHAT = "{\"model\":\"gpt-4o\",\"max_tokens\":50,\"messages\":"
      + "[{\"role\":\"user\",\"content\":\"Say hello to the benchmark in five words.\"}]}";
  private static final String CHAT_PATH = "/v1/chat/completions";

  private final AgentBenchOptions options;
  private final Path work;
  private final String classPath;

  private AgentBench(AgentBenchOptions options, Path work, String classPath) {
    this.options = options;
    this.work = work;
    this.classPath = classPath;
  }

  public static void main(String[] args) throws Exception {
    AgentBenchOptions options = AgentBenchOptions.parse(args);
    if (options.startup() && !Files.isRegularFile(options.otelAgentJar())) {
      throw new IllegalStateException(options.otelAgentJar() + " does not exist: build with "
          + "mvn -Pbench -Dmaven.test.skip=true package, from the project's root");
    }
    if (!Files.isRegularFile(options.agentJar())) {
      throw new IllegalStateException(options.agentJar() + " does not exist: build with "
          + "mvn -Pbench -Dmaven.test.skip=true package, from the project's root");
    }
    Path work = Files.createTempDirectory("tollgate-agent-bench");
    AgentBench bench = new AgentBench(options, work, appClassPath(options.appLibs(), work));
    try (FixedReplyServer server = FixedReplyServer.start(); RedisServer redis = RedisServer.start()) {
      Map<Setup, Path> configs = new EnumMap<>(Setup.class);
      for (Setup setup : Setup.values()) {
        configs.put(setup, setup.writeConfig(work, server.baseUrl(), redis.uri().toString()));
      }
      String url = server.baseUrl() + CHAT_PATH;
      List<Row> perCall = Row.perCall(options.agentJar(), options.beforeJar());
      List<Row> rows = Row.startup(options.agentJar(), options.beforeJar(),
          options.otelAgentJar(), options.openAiStartupApp());
      AgentReport report = new AgentReport(options, perCall, rows, Load.now());
      if (options.latency()) {
        bench.latency(url, redis, configs, perCall, report);
      }
      if (options.paired()) {
        bench.paired(url, redis, configs, perCall, report);
      }
      if (options.latency() || options.paired()) {
        report.redisRoundTrip(pingNanos(redis), reserveNanos(redis));
      }
      if (options.startup()) {
        bench.startup(url, configs, rows, report);
      }
      report.end(Load.now());
      System.out.print(report.markdown());
    }
  }

  private void latency(String url, RedisServer redis, Map<Setup, Path> configs, List<Row> rows,
      AgentReport report) throws Exception {
    for (int round = 0; round < options.rounds(); round++) {
      for (int i = 0; i < rows.size(); i++) {
        int index = (i + round) % rows.size();
        Row row = rows.get(index);
        progress("latency round " + (round + 1) + "/" + options.rounds() + ": " + row.label());
        ForkedApp.Run run = ForkedApp.run(command(row.setup(), row.agentJar(),
            configs.get(row.setup()), url, false, options.warmup(), options.calls()),
            work.resolve("stderr.txt"));
        report.latency(index, round, run);
      }
      report.reserveBeforeCall(reserveBeforeCall(redis, url));
    }
  }

  /** Each row's client with and without Tollgate's interceptor, alternated in one JVM. */
  private void paired(String url, RedisServer redis, Map<Setup, Path> configs, List<Row> rows,
      AgentReport report) throws Exception {
    for (int round = 0; round < options.rounds(); round++) {
      for (int i = 0; i < rows.size(); i++) {
        int index = (i + round) % rows.size();
        Row row = rows.get(index);
        progress("paired round " + (round + 1) + "/" + options.rounds() + ": " + row.label());
        List<String> command = command(row.setup(), row.agentJar(), configs.get(row.setup()), url,
            false, options.warmup(), options.calls());
        command.add("paired");
        if (row.setup() == Setup.REDIS) {
          command.addAll(List.of("reference", redis.uri().toString(),
              Long.toString(Setup.REQUESTS_PER_MINUTE), Long.toString(Setup.TOKENS_PER_MINUTE)));
        }
        ForkedApp.Run run = ForkedApp.run(command, work.resolve("stderr.txt"));
        report.paired(index, round, run);
      }
      report.reserveBeforeCall(reserveBeforeCall(redis, url));
    }
  }

  private void startup(String url, Map<Setup, Path> configs, List<Row> rows,
      AgentReport report) throws Exception {
    for (int rep = 0; rep < options.startups(); rep++) {
      progress("start-up " + (rep + 1) + "/" + options.startups());
      for (int i = 0; i < rows.size(); i++) {
        int row = (i + rep) % rows.size();
        Row startup = rows.get(row);
        List<String> command = command(startup.setup(), startup.agentJar(),
            configs.get(startup.setup()), url, true, 0, 0);
        if (options.openAiStartupApp()) {
          command = openAiApp(command, url.substring(0, url.length() - CHAT_PATH.length()),
              startup.setup() == Setup.TOKENIZER_ONLY);
        }
        ForkedApp.Run run = ForkedApp.run(command, work.resolve("stderr.txt"));
        report.startup(row, rep, run);
      }
    }
  }

  /**
   * The OpenAI SDK's app in place of the per-call app, the JVM and agent options the same; with
   * {@code tokenizerFirst}, jtokkit on its class path and {@code TokenizerThenApp} its main class.
   */
  private static List<String> openAiApp(List<String> latencyCommand, String baseUrl,
      boolean tokenizerFirst) throws IOException {
    List<String> command = new ArrayList<>(
        latencyCommand.subList(0, latencyCommand.indexOf("-cp")));
    Path app = Path.of("bench/openai-app/target");
    List<String> classPath = new ArrayList<>(List.of(app.resolve("classes").toString()));
    classPath.addAll(jars(app.resolve("app-libs")));
    if (tokenizerFirst) {
      classPath.addAll(jars(app.resolve("tokenizer-libs")));
    }
    command.addAll(List.of("-cp", String.join(java.io.File.pathSeparator, classPath),
        "io.tollgate.bench.openaiapp."
            + (tokenizerFirst ? "TokenizerThenApp" : "OpenAiStartupApp"), baseUrl));
    return command;
  }

  private static List<String> jars(Path directory) throws IOException {
    try (Stream<Path> jars = Files.list(directory)) {
      return jars.filter(p -> p.toString().endsWith(".jar")).sorted()
          .map(p -> p.toAbsolutePath().toString()).toList();
    }
  }

  private List<String> command(Setup setup, Path agentJar, Path config, String url,
      boolean debug, int warmup, int calls) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(options.jvmOptions());
    if (setup == Setup.OTEL_AGENT) {
      command.addAll(List.of("-javaagent:" + options.otelAgentJar().toAbsolutePath(),
          "-Dotel.traces.exporter=none", "-Dotel.metrics.exporter=none",
          "-Dotel.logs.exporter=none"));
    } else if (setup.agent()) {
      if (debug) {
        command.add("-Dtollgate.debug=true"); // the agent's own start-up breakdown
      }
      command.add("-javaagent:" + agentJar.toAbsolutePath() + "=config=" + config);
    }
    command.addAll(List.of("-cp", classPath, LatencyApp.class.getName(), url, CHAT,
        Integer.toString(warmup), Integer.toString(calls)));
    return command;
  }

  /**
   * The app's class files, copied out of this jar into a directory of its own, then the OkHttp
   * jars: the child JVMs must not see the benchmark's jar, which holds a Tollgate core of its own
   * (the paired Redis run's reference limiter is the agent jar's, see {@link AgentLimiterReserve}).
   */
  private static String appClassPath(Path appLibs, Path work) throws IOException {
    Path classes = work.resolve("app-classes");
    for (Class<?> app : List.of(LatencyApp.class, AgentLimiterReserve.class)) {
      String resource = app.getName().replace('.', '/') + ".class";
      Path target = classes.resolve(resource);
      Files.createDirectories(target.getParent());
      try (InputStream in = AgentBench.class.getClassLoader().getResourceAsStream(resource)) {
        Files.copy(in, target);
      }
    }
    List<String> entries = new ArrayList<>();
    entries.add(classes.toString());
    try (Stream<Path> jars = Files.list(appLibs)) {
      jars.filter(p -> p.toString().endsWith(".jar")).sorted()
          .forEach(p -> entries.add(p.toAbsolutePath().toString()));
    }
    if (entries.size() < 2) {
      throw new IllegalStateException("no OkHttp jars in " + appLibs);
    }
    return String.join(java.io.File.pathSeparator, entries);
  }

  /** A Redis round trip as a client on this machine sees it: PING, timed one by one. */
  private static long[] pingNanos(RedisServer redis) {
    progress("Redis round trip");
    try (Jedis jedis = redis.jedis()) {
      for (int i = 0; i < 5_000; i++) {
        jedis.ping();
      }
      long[] nanos = new long[20_000];
      for (int i = 0; i < nanos.length; i++) {
        long start = System.nanoTime();
        jedis.ping();
        nanos[i] = System.nanoTime() - start;
      }
      return nanos;
    }
  }

  /**
   * The round trip the agent's Redis limiter makes on the app's thread: a reserve (one
   * {@code EVALSHA}) of one request and a token estimate against the limits of {@link Setup}'s
   * provider, timed one by one; each is settled afterwards, untimed, as the agent's settle thread
   * does.
   */
  private static long[] reserveNanos(RedisServer redis) {
    progress("Redis reserve round trip");
    Limits limits = Limits.of(Limit.requests(Setup.REQUESTS_PER_MINUTE, Duration.ofMinutes(1)),
        Limit.tokens(Setup.TOKENS_PER_MINUTE, Duration.ofMinutes(1)));
    Subject provider = Subject.of("provider", "openai");
    try (RedisConnection client = RedisConnection.standalone(redis.uri())
        .timeout(Duration.ofSeconds(2)).poolSize(1).build();
        RateLimiter limiter = RateLimiter.redis(client)) {
      long[] nanos = new long[25_000];
      for (int i = 0; i < nanos.length; i++) {
        long start = System.nanoTime();
        Decision decision = limiter.reserve(provider, limits, 1, 100);
        nanos[i] = System.nanoTime() - start;
        limiter.settle(decision.reservation().orElseThrow(), 17);
      }
      return java.util.Arrays.copyOfRange(nanos, 5_000, nanos.length);
    }
  }

  /**
   * What one reserve round trip adds to a call where the agent's calls run, measured once per
   * round, after its rows, without the agent in a JVM of its own ({@link ReserveBeforeCallApp}): the app's OkHttp jars first (OkHttp
   * 3.14, which this jar holds, answers in over a millisecond against this server), then this jar
   * for the limiter.
   *
   * @return the run: its calls with a reserve (reserve and call timed together), without one, and
   *     the thread's CPU per call with and without
   */
  private ForkedApp.Run reserveBeforeCall(RedisServer redis, String url) throws Exception {
    progress("Redis reserve before each call");
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(options.jvmOptions());
    command.addAll(List.of("-cp",
        classPath + java.io.File.pathSeparator + System.getProperty("java.class.path"),
        ReserveBeforeCallApp.class.getName(), url, CHAT, redis.uri().toString(), "20000", "20000",
        Long.toString(Setup.REQUESTS_PER_MINUTE), Long.toString(Setup.TOKENS_PER_MINUTE)));
    return ForkedApp.run(command, work.resolve("stderr.txt"));
  }

  private static void progress(String message) {
    System.err.println("[" + java.time.LocalTime.now().withNano(0) + "] " + message
        + " (load " + Load.now() + ")");
  }
}
