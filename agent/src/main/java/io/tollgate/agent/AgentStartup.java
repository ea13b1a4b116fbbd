package io.tollgate.agent;

import io.tollgate.agent.instrumentation.Installer;
import io.tollgate.agent.instrumentation.InstrumentationModules;
import io.tollgate.agent.telemetry.AgentTelemetry;
import io.tollgate.config.ConfigException;
import io.tollgate.config.Mode;
import io.tollgate.config.TelemetryExport;
import io.tollgate.config.TollgateConfig;
import io.tollgate.config.TollgateConfigLoader;
import io.tollgate.gate.Gate;
import io.tollgate.telemetry.Telemetry;
import java.lang.instrument.Instrumentation;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import net.bytebuddy.agent.builder.AgentBuilder;

/**
 * Start-up, in order: arguments, configuration, gate, instrumentation. Every failure before the
 * instrumentation is installed leaves the app exactly as it would be without the agent, after one
 * line on stderr; under {@code strict: true} a bad configuration aborts start-up instead.
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
    long startNanos = System.nanoTime();
    keepByteBuddyOffUnsafe();
    Map<String, String> environment = System.getenv();
    AgentArguments arguments;
    try {
      arguments = AgentArguments.parse(rawArguments);
    } catch (IllegalArgumentException e) {
      refuse(e.getMessage(), e, rawArguments != null && rawArguments.contains("strict=true"), attach);
      return;
    }
    Optional<String> location = ConfigLocation.resolve(arguments, System.getProperties(), environment);
    FutureTask<AgentBuilder> instrumentation = location.isEmpty() ? null : prepareInstrumentation(jvm);
    if (location.isEmpty()) {
      refuse("no configuration: give -javaagent:tollgate-agent.jar=config=/path/tollgate.yaml, "
          + "-D" + ConfigLocation.PROPERTY + "=... or " + TollgateConfigLoader.LOCATION_VARIABLE
          + "=...", null, arguments.strict(), attach);
      return;
    }
    TollgateConfig config;
    try {
      config = TollgateConfigLoader.create().load(location.get());
    } catch (ConfigException e) {
      refuse(e.getMessage(), e, StrictFlag.of(arguments, location.get(), environment), attach);
      return;
    } catch (RuntimeException | LinkageError e) {
      refuse("configuration " + location.get() + " cannot be read: " + e, e,
          StrictFlag.of(arguments, location.get(), environment), attach);
      return;
    }
    if (config.mode() == Mode.OFF) {
      AgentLog.line("off (tollgate.mode: off in " + location.get() + "): nothing instrumented");
      return;
    }
    long configNanos = System.nanoTime();
    try {
      AgentTelemetry agentTelemetry = AgentTelemetry.start(config, AgentLog::line);
      Telemetry telemetry = agentTelemetry.telemetry();
      Gate gate = Gate.builder(config).telemetry(telemetry).build();
      AgentGates.install(gate);
      Runtime.getRuntime().addShutdownHook(new Thread(
          () -> agentTelemetry.shutdown(gate::close), "tollgate-shutdown"));
      long gateNanos = System.nanoTime();
      Installer.install(jvm, built(instrumentation));
      started = true;
      long endNanos = System.nanoTime();
      if (AgentLog.DEBUG) {
        AgentLog.line("started in " + millis(startNanos, endNanos) + " ms: configuration "
            + millis(startNanos, configNanos) + " ms, gate " + millis(configNanos, gateNanos)
            + " ms, instrumentation " + millis(gateNanos, endNanos) + " ms");
      }
      AgentLog.line("on: mode " + config.mode().name().toLowerCase(java.util.Locale.ROOT)
          + ", providers " + config.providers().keySet()
          + ", limiter " + (config.redis().isPresent() ? "redis" : "in-memory")
          + ", instrumented " + InstrumentationModules.names()
          + (config.telemetry().export() == TelemetryExport.OTLP ? ", telemetry otlp" : ""));
    } catch (RuntimeException | LinkageError e) {
      AgentGates.install(null);
      refuse("cannot start: " + e, e, config.strict(), attach);
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

  /**
   * The agent's (relocated) ByteBuddy must not touch {@code sun.misc.Unsafe}: from JDK 24 the JVM
   * prints warnings about it on the app's stderr. Helpers are injected without it; this switch
   * (ByteBuddy's {@code net.bytebuddy.safe}, under the relocated name, so an app's own ByteBuddy is
   * not affected) keeps ByteBuddy's own probing off it.
   */
  private static void keepByteBuddyOffUnsafe() {
    String property = AgentBuilder.class.getPackageName().replace(".agent.builder", "") + ".safe";
    if (System.getProperty(property) == null) {
      System.setProperty(property, "true");
    }
  }

  /**
   * ByteBuddy's set-up, on two threads of their own while the configuration is read and the gate
   * built: the agent builder, and the transformer class ByteBuddy generates on first use (see
   * {@link Installer#warmUp}). The task is done when both are.
   */
  private static FutureTask<AgentBuilder> prepareInstrumentation(Instrumentation jvm) {
    FutureTask<Void> transformer = inBackground("tollgate-start-transformer", () -> {
      Installer.warmUp();
      return null;
    });
    return inBackground("tollgate-start", () -> {
      AgentBuilder builder = Installer.prepare(jvm, InstrumentationModules.all());
      transformer.get();
      return builder;
    });
  }

  private static <T> FutureTask<T> inBackground(String name, Callable<T> work) {
    FutureTask<T> task = new FutureTask<>(work);
    Thread thread = new Thread(task, name);
    thread.setDaemon(true);
    thread.start();
    return task;
  }

  private static AgentBuilder built(FutureTask<AgentBuilder> task) {
    try {
      return task.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while preparing the instrumentation", e);
    } catch (ExecutionException e) {
      throw new IllegalStateException("preparing the instrumentation failed: " + e.getCause(), e.getCause());
    }
  }

  private static long millis(long fromNanos, long toNanos) {
    return (toNanos - fromNanos) / 1_000_000;
  }
}
