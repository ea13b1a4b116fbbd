package io.tollgate.agent.jdkhttp;

import io.tollgate.agent.AgentGates;
import io.tollgate.agent.InternalFailures;
import io.tollgate.gate.Gate;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.Supplier;

/**
 * Every {@code send} and {@code sendAsync} of a JDK {@code HttpClient} asks it first (through
 * {@link JdkHttpBridge}). A call to a host no provider lives on costs one string
 * comparison per provider and proceeds with the app's own objects; a provider call goes through
 * the {@link Gate} ({@link GatedExchange}). Tollgate's own attempts, sent through the same client,
 * are let through.
 */
final class JdkHttpHook {

  static final String WHERE = "jdk-httpclient";

  /** Depth of Tollgate's own sends on this thread: the hooks let them through. */
  private static final ThreadLocal<int[]> OWN_SENDS = ThreadLocal.withInitial(() -> new int[1]);

  /** Null for the agent's: the gate of this JVM ({@link AgentGates}) while Tollgate runs. */
  private final Gate gate;

  /** The agent's hook. */
  JdkHttpHook() {
    this.gate = null;
  }

  /** Through {@code gate}, without the agent (tests). */
  JdkHttpHook(Gate gate) {
    this.gate = Objects.requireNonNull(gate, "gate");
  }

  /** See {@link JdkHttpBridge} for the answer. */
  Object onSend(HttpClient client, HttpRequest request, HttpResponse.BodyHandler<?> handler) {
    Gate through = gateFor(request);
    if (through == null) {
      return null;
    }
    CompletableFuture<? extends HttpResponse<?>> answer =
        GatedExchange.start(through, client, request, handler);
    if (answer == null) {
      return null;
    }
    // send() blocks its caller anyway: waiting here is the app's own wait
    try {
      return answer.get();
    } catch (InterruptedException e) {
      answer.cancel(true);
      return e;
    } catch (ExecutionException e) {
      return thrownBySend(e.getCause());
    }
  }

  /** See {@link JdkHttpBridge} for the answer. */
  Object onSendAsync(HttpClient client, HttpRequest request, HttpResponse.BodyHandler<?> handler,
      HttpResponse.PushPromiseHandler<?> pushPromiseHandler) {
    if (pushPromiseHandler != null) {
      return null; // server push: answers Tollgate cannot account for; left alone
    }
    Gate through = gateFor(request);
    if (through == null) {
      return null;
    }
    return GatedExchange.start(through, client, request, handler);
  }

  /** The gate for a call to a watched host, unless it is one of Tollgate's own attempts. */
  private Gate gateFor(HttpRequest request) {
    try {
      Gate configured = gate != null ? gate : AgentGates.gate();
      if (configured == null || !configured.watchesHost(request.uri().getHost())
          || OWN_SENDS.get()[0] > 0) {
        return null;
      }
      return configured;
    } catch (RuntimeException | LinkageError e) {
      InternalFailures.record(WHERE, e);
      return null;
    }
  }

  /** Runs {@code send} (a call on the app's client) as Tollgate's own: not intercepted again. */
  static <V> V ownSend(Supplier<V> send) {
    int[] depth = OWN_SENDS.get();
    depth[0]++;
    try {
      return send.get();
    } finally {
      depth[0]--;
    }
  }

  /**
   * What {@code send} throws for a failed exchange: the failure itself when {@code send} may
   * throw it as it is (the JDK's own {@code send} throws the same types).
   */
  static Throwable thrownBySend(Throwable failure) {
    if (failure instanceof IOException || failure instanceof RuntimeException
        || failure instanceof Error) {
      return failure;
    }
    return new IOException(failure.getMessage(), failure);
  }
}
