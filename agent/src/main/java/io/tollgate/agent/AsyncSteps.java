package io.tollgate.agent;

import io.tollgate.gate.Gate;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads on which the gate's steps that may block run for the asynchronous clients (the
 * estimate, each reserve and release, the decision on an answer:
 * {@link Gate#callAsync(io.tollgate.router.OutboundRequest, boolean,
 * io.tollgate.gate.AsyncTransport, Executor)}), so that a client's I/O threads only hand work
 * over and never wait for Redis. At most {@link #THREADS} daemon threads, {@code tollgate-async-N},
 * started when needed and ended after a minute idle; work beyond them queues.
 */
public final class AsyncSteps {

  /** Each step waits at most one limiter round trip: a few threads per core keep up. */
  static final int THREADS = Math.max(4, 2 * Runtime.getRuntime().availableProcessors());

  private static final AtomicInteger NUMBER = new AtomicInteger();
  private static final ThreadPoolExecutor EXECUTOR = newExecutor();

  private AsyncSteps() {}

  /** The executor the hooks of asynchronous clients hand the gate's steps to. */
  public static Executor executor() {
    return EXECUTOR;
  }

  private static ThreadPoolExecutor newExecutor() {
    ThreadPoolExecutor executor = new ThreadPoolExecutor(THREADS, THREADS, 60, TimeUnit.SECONDS,
        new LinkedBlockingQueue<>(), task -> {
          // not the app thread's inheritable thread locals, nor its (webapp) context loader
          Thread thread = new Thread(null, task, "tollgate-async-" + NUMBER.incrementAndGet(), 0,
              false);
          thread.setDaemon(true);
          thread.setContextClassLoader(AsyncSteps.class.getClassLoader());
          return thread;
        });
    executor.allowCoreThreadTimeOut(true);
    return executor;
  }
}
