package io.tollgate.agent;

import io.tollgate.agent.bridge.TollgateBridge;
import io.tollgate.gate.Gate;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The gate of this JVM, for the instrumentation helpers that run in the app's class loaders.
 * Empty (null) until the agent has started, and forever when it is disabled. A helper on a thread
 * that must not sleep (OkHttp's dispatcher) calls it through {@link Gate#callWithoutPausing}.
 *
 * <p>While the agent starts ({@code tollgate-start}, see docs/agent.md "Start-up"), the client
 * classes are already instrumented: a call made then waits here, on the app's thread that makes
 * it, until the start has decided (the gate, or none when the agent turns out off or disabled), at
 * most {@link #MAX_WAIT}. So no call escapes the agent, and none is half-handled.
 */
public final class AgentGates {

  /** How long a call made during the start waits for it. */
  public static final Duration MAX_WAIT = Duration.ofSeconds(30);

  private static final AtomicInteger CALLS_THAT_WAITED = new AtomicInteger();
  private static volatile Gate gate;
  /** Non-null while the agent starts: counted down when it has decided. */
  private static volatile CountDownLatch starting;
  /** The thread that completes the start: it never waits for itself. */
  private static volatile Thread starter;
  private static volatile boolean waitRanOut;

  private AgentGates() {}

  /**
   * The agent is starting on {@code startThread}: calls on any other thread wait for
   * {@link #install} from now on.
   */
  static void starting(Thread startThread) {
    starter = startThread;
    starting = new CountDownLatch(1);
  }

  /** The start has decided: {@code configured}, or null when Tollgate is not running. */
  static void install(Gate configured) {
    gate = configured;
    CountDownLatch started = starting;
    starting = null;
    if (started != null) {
      started.countDown();
    }
  }

  /**
   * The gate as configured, or null when Tollgate is not running or when app-side Tollgate is
   * sending a call it gated itself on this thread ({@link TollgateBridge#CALL_GATED}); while the
   * agent starts, what the start decides (the wait bounded by {@link #MAX_WAIT}: null, so an untouched call, after it).
   */
  public static Gate gate() {
    if (TollgateBridge.CALL_GATED.get() != null) {
      return null; // app-side Tollgate gated this call itself
    }
    CountDownLatch started = starting;
    if (started != null && !waitRanOut && Thread.currentThread() != starter) {
      awaitStart(started);
    }
    return gate;
  }

  /** How many calls have waited for the start (the debug line's figure). */
  static int callsThatWaited() {
    return CALLS_THAT_WAITED.get();
  }

  private static void awaitStart(CountDownLatch started) {
    CALLS_THAT_WAITED.incrementAndGet();
    try {
      if (!started.await(MAX_WAIT.toMillis(), TimeUnit.MILLISECONDS) && !waitRanOut) {
        waitRanOut = true;
        AgentLog.line("a call was made while the agent was starting and waited "
            + MAX_WAIT.toSeconds() + " s for it: it goes on untouched, as does every call until "
            + "the start completes");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
