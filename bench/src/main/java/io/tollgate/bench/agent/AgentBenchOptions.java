package io.tollgate.bench.agent;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Command-line options; the defaults are the documented run (about 10 minutes on 2 cores).
 *
 * <pre>
 * --rounds 3              latency rounds; each runs every setup once, in a rotated order
 * --warmup 20000          calls before the measured ones, in each run (the JIT)
 * --calls 20000           measured calls per run
 * --startups 20           start-up repetitions of each setup
 * --only latency,paired,startup  some parts only (paired: each client with and without
 *                         Tollgate's interceptor in one JVM, calls alternated)
 * --jvm-option OPTION     passed to every child JVM (repeatable)
 * --agent-jar PATH        default agent/target/tollgate-agent.jar
 * --before-jar PATH       start-up also measured on this agent jar, side by side (before/after)
 * --otel-agent PATH       the OpenTelemetry Java agent of the start-up's anchor row; default
 *                         bench/target/otel-javaagent/opentelemetry-javaagent.jar
 * --startup-app NAME      openai (default): the OpenAI Java SDK making one call
 *                         (bench/openai-app); okhttp: the per-call app, plain OkHttp
 * --app-libs DIR          the OkHttp jars the app runs on; default bench/target/agent-app-libs
 * --quick                 --rounds 1 --warmup 2000 --calls 2000 --startups 2: checks the wiring
 * </pre>
 */
record AgentBenchOptions(int rounds, int warmup, int calls, int startups, boolean latency,
    boolean paired, boolean startup, List<String> jvmOptions, Path agentJar, Path beforeJar,
    Path otelAgentJar, Path appLibs, boolean openAiStartupApp) {

  static AgentBenchOptions parse(String[] args) {
    int rounds = 3;
    int warmup = 20_000;
    int calls = 20_000;
    int startups = 20;
    boolean latency = true;
    boolean paired = true;
    boolean startup = true;
    List<String> jvmOptions = new ArrayList<>();
    Path agentJar = Path.of("agent/target/tollgate-agent.jar");
    Path beforeJar = null;
    Path otelAgentJar = Path.of("bench/target/otel-javaagent/opentelemetry-javaagent.jar");
    Path appLibs = Path.of("bench/target/agent-app-libs");
    boolean openAiStartupApp = true;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--rounds" -> rounds = positive(args, ++i);
        case "--warmup" -> warmup = positive(args, ++i);
        case "--calls" -> calls = positive(args, ++i);
        case "--startups" -> startups = positive(args, ++i);
        case "--only" -> {
          String only = value(args, ++i);
          latency = only.contains("latency");
          paired = only.contains("paired");
          startup = only.contains("startup");
          if (!latency && !paired && !startup) {
            throw new IllegalArgumentException(
                "--only takes latency, paired and/or startup, was " + only);
          }
        }
        case "--jvm-option" -> jvmOptions.add(value(args, ++i));
        case "--agent-jar" -> agentJar = Path.of(value(args, ++i));
        case "--before-jar" -> beforeJar = Path.of(value(args, ++i));
        case "--otel-agent" -> otelAgentJar = Path.of(value(args, ++i));
        case "--startup-app" -> {
          String app = value(args, ++i);
          if (!app.equals("openai") && !app.equals("okhttp")) {
            throw new IllegalArgumentException("--startup-app takes openai or okhttp, was " + app);
          }
          openAiStartupApp = app.equals("openai");
        }
        case "--app-libs" -> appLibs = Path.of(value(args, ++i));
        case "--quick" -> {
          rounds = 1;
          warmup = 2_000;
          calls = 2_000;
          startups = 2;
        }
        default -> throw new IllegalArgumentException("unknown option " + args[i] + "; known: "
            + "--rounds N --warmup CALLS --calls CALLS --startups N --only latency,paired,startup "
            + "--jvm-option OPTION --agent-jar PATH --before-jar PATH --otel-agent PATH "
            + "--startup-app openai|okhttp --app-libs DIR --quick");
      }
    }
    return new AgentBenchOptions(rounds, warmup, calls, startups, latency, paired, startup,
        List.copyOf(jvmOptions), agentJar, beforeJar, otelAgentJar, appLibs, openAiStartupApp);
  }

  private static String value(String[] args, int i) {
    if (i >= args.length) {
      throw new IllegalArgumentException(args[i - 1] + " needs a value");
    }
    return args[i];
  }

  private static int positive(String[] args, int i) {
    int value = Integer.parseInt(value(args, i));
    if (value <= 0) {
      throw new IllegalArgumentException(args[i - 1] + " must be > 0, was " + value);
    }
    return value;
  }
}
