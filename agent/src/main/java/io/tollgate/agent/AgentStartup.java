package io.tollgate.agent;

import io.tollgate.agent.instrumentation.AgentInstaller;
import io.tollgate.agent.instrumentation.InstrumentationModules;
import io.tollgate.agent.telemetry.AgentTelemetry;
import io.tollgate.config.ConfigException;
import io.tollgate.config.Mode;
import io.tollgate.config.TelemetryExport;
import io.tollgate.config.TollgateConfig;
import io.tollgate.config.TollgateConfigLoader;
import io.tollgate.gate.Gate;
import io.tollgate.status.StatusServer;
import io.tollgate.telemetry.Telemetry;
import java.lang.instrument.Instrumentation;
import java.util.Map;
import java.util.Optional;

/**
 * Start-up. {@code premain} itself only reads its arguments, finds the configuration and installs
 * the advice ({@link AgentInstaller}); the configuration and the gate are made on a thread of their own
 * ({@code tollgate-start}) while the app starts. The client types the app loads meanwhile get their
 * advice as they load, and a call made through them before the start is done waits for it
 * ({@link AgentGates}), so no call escapes the agent.
 *
 * <p>Every failure leaves the app exactly as it would be without the agent, after one line on
 * stderr. Under {@code strict: true} a bad configuration aborts start-up instead: when strict is
 * asked for (the agent argument, {@code TOLLGATE_STRICT}, or the raw file), the configuration is
 * read and validated in {@code premain}, before {@code main}. A late attach ({@code agentmain})
 * does everything on the attaching thread.
 */
final class AgentStartup {

  /** How the agent came in: at launch ({@code premain}) or into a running JVM ({@code agentmain}). */
  enum Attach { LAUNCH, RUNNING }

  private static boolean started;

  private AgentStartup() {}

  static synchronized void start(String rawArguments, Instrumentation jvm, Attach attach) {
    if (started) {
      AgentLog.line("already running; ignoring a second attach");
      return;
    }
    Timings timings = new Timings();
    Map<String, String> environment = System.getenv();
    AgentArguments arguments;
    try {
      arguments = AgentArguments.parse(rawArguments);
    } catch (IllegalArgumentException e) {
      refuse(e.getMessage(), e, rawArguments != null && rawArguments.contains("strict=true"), attach);
      return;
    }
    Optional<String> location = ConfigLocation.resolve(arguments, System.getProperties(), environment);
    if (location.isEmpty()) {
      refuse("no configuration: give -javaagent:tollgate-agent.jar=config=/path/tollgate.yaml, "
          + "-D" + ConfigLocation.PROPERTY + "=... or " + TollgateConfigLoader.LOCATION_VARIABLE
          + "=...", null, arguments.strict(), attach);
      return;
    }
    Start start = new Start(location.get(), StrictFlag.of(arguments, location.get(), environment),
        jvm, attach, timings);
    if (start.strict && !start.readConfiguration()) {
      return; // refused (under strict: the JVM has exited, or the attach throws)
    }
    Thread thread = attach == Attach.RUNNING ? Thread.currentThread()
        : new Thread(start::run, "tollgate-start");
    AgentGates.starting(thread);
    long installFrom = System.nanoTime();
    start.installer = AgentInstaller.install(jvm, InstrumentationModules.all());
    timings.instrumentation = System.nanoTime() - installFrom;
    started = true;
    timings.premainEnd = System.nanoTime();
    if (attach == Attach.RUNNING) {
      start.run();
      return;
    }
    thread.setDaemon(true);
    thread.start();
  }

  private static synchronized void failed() {
    started = false;
  }

  /** The start after {@code premain}'s part: on {@code tollgate-start}, or on the attaching thread. */
  private static final class Start {
    private final String location;
    private final boolean strict;
    private final Instrumentation jvm;
    private final Attach attach;
    private final Timings timings;
    private TollgateConfig config;
    private AgentInstaller installer;

    Start(String location, boolean strict, Instrumentation jvm, Attach attach, Timings timings) {
      this.location = location;
      this.strict = strict;
      this.jvm = jvm;
      this.attach = attach;
      this.timings = timings;
    }

    /** Reads and validates the configuration; false when refused. */
    boolean readConfiguration() {
      long from = System.nanoTime();
      try {
        config = TollgateConfigLoader.create().load(location);
        return true;
      } catch (ConfigException e) {
        refuse(e.getMessage(), e, strict, attach);
      } catch (RuntimeException | LinkageError e) {
        refuse("configuration " + location + " cannot be read: " + e, e, strict, attach);
      } finally {
        timings.configuration = System.nanoTime() - from;
      }
      return false;
    }

    void run() {
      try {
        if (config == null && !readConfiguration()) {
          stop();
          return;
        }
        if (config.mode() == Mode.OFF) {
          AgentLog.line("off (tollgate.mode: off in " + location + "): nothing instrumented");
          stop();
          return;
        }
        long gateFrom = System.nanoTime();
        AgentTelemetry agentTelemetry = AgentTelemetry.start(config, AgentLog::line);
        Telemetry telemetry = agentTelemetry.telemetry();
        Gate gate = Gate.builder(config).frontEnd("agent").telemetry(telemetry).build();
        Optional<StatusServer> statusPage;
        try {
          statusPage = AgentStatusPage.start(gate, config.strict(), AgentLog::line);
        } catch (RuntimeException e) {
          agentTelemetry.shutdown(gate::close);
          throw e;
        }
        Runnable closeGate = () -> {
          statusPage.ifPresent(StatusServer::close);
          gate.close();
        };
        if (!closedAtShutdown(agentTelemetry, closeGate)) {
          stop(); // the app has ended before the start did: the JVM is on its way out
          return;
        }
        timings.gate = System.nanoTime() - gateFrom;
        if (AgentLog.DEBUG) {
          AgentLog.line(timings.describe() + "; calls that waited for it: "
              + AgentGates.callsThatWaited());
        }
        AgentLog.line("on: mode " + config.mode().name().toLowerCase(java.util.Locale.ROOT)
            + ", providers " + config.providers().keySet()
            + ", limiter " + (config.redis().isPresent() ? "redis" : "in-memory")
            + ", instrumented " + InstrumentationModules.names()
            + (config.telemetry().export() == TelemetryExport.OTLP ? ", telemetry otlp" : "")
            + ", version " + version());
        statusPage.ifPresent(server -> AgentLog.line("status page: "
            + AgentStatusPage.address(config.status().bind(), server.port())));
        // after the start-up line: a waiting call's own output comes after it
        AgentGates.install(gate);
      } catch (RuntimeException | LinkageError e) {
        stop();
        refuse("cannot start: " + e, e, config != null && config.strict(), attach);
      }
    }

    /**
     * Has the gate (its status page first) and the agent's telemetry closed at JVM shutdown;
     * false, and closed now, when the shutdown has already begun.
     */
    private static boolean closedAtShutdown(AgentTelemetry telemetry, Runnable closeGate) {
      try {
        Runtime.getRuntime().addShutdownHook(
            new Thread(() -> telemetry.shutdown(closeGate), "tollgate-shutdown"));
        return true;
      } catch (IllegalStateException shutdownInProgress) {
        telemetry.shutdown(closeGate);
        return false;
      }
    }

    /** Nothing is instrumented, and no call waits any more. */
    private void stop() {
      AgentGates.install(null);
      installer.remove();
      failed();
    }
  }

  /**
   * The agent jar's version: the Implementation-Version of its manifest, which the package of the
   * jar's classes carries; "unknown" when the agent runs from compiled classes, without a jar.
   */
  private static String version() {
    String version = TollgateAgent.class.getPackage().getImplementationVersion();
    return version != null ? version : "unknown";
  }

  /** Where the start's time went, for {@code -Dtollgate.debug=true}. */
  private static final class Timings {
    final long premainStart = System.nanoTime();
    long premainEnd;
    long configuration;
    long gate;
    long instrumentation;

    String describe() {
      long total = System.nanoTime() - premainStart;
      return "started in " + millis(total) + " ms: configuration " + millis(configuration)
          + " ms, gate " + millis(gate) + " ms, instrumentation " + millis(instrumentation)
          + " ms; premain " + millis(premainEnd - premainStart) + " ms, the rest on "
          + Thread.currentThread().getName();
    }

    private static long millis(long nanos) {
      return nanos / 1_000_000;
    }
  }

  /**
   * Leaves the app alone, or under {@code strict} stops it from starting: at launch the JVM exits
   * with status 1 before {@code main}; a late attach is refused with an exception.
   */
  private static void refuse(String problem, Throwable cause, boolean strict, Attach attach) {
    if (!strict) {
      AgentLog.failure("disabled: " + problem, cause);
      return;
    }
    AgentLog.failure("start-up aborted (strict: true): " + problem, cause);
    if (attach == Attach.LAUNCH) {
      System.exit(1);
    }
    throw new IllegalStateException("Tollgate refused to start: " + AgentLog.oneLine(problem));
  }
}
