package io.tollgate.agent.okhttp.helpers;

import io.tollgate.agent.AgentGates;
import io.tollgate.agent.CallerThreads;
import io.tollgate.agent.EnqueuedTenants;
import io.tollgate.agent.InternalFailures;
import io.tollgate.gate.Gate;
import io.tollgate.gate.Tenants;
import java.io.IOException;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import okhttp3.Interceptor;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;

/**
 * Puts every call to a configured provider through the {@link Gate}: limits, fallback, settle from
 * the body as the app reads it. Any other call goes on untouched after one host comparison.
 */
public final class TollgateInterceptor implements Interceptor {

  static final String WHERE = "okhttp.interceptor";

  /** Null for the agent's: the gate of this JVM ({@link AgentGates}) while Tollgate runs. */
  private final Gate gate;

  /** The agent's: the gate of this JVM while Tollgate runs, nothing otherwise. */
  public TollgateInterceptor() {
    this.gate = null;
  }

  /** Through {@code gate}, without the agent. */
  public TollgateInterceptor(Gate gate) {
    this.gate = Objects.requireNonNull(gate, "gate");
  }

  /**
   * Makes Tollgate's interceptor the first application interceptor of {@code builder}, once: a
   * builder copied from a client ({@code client.newBuilder()}) already has one, possibly twice
   * (OkHttp 4 copies the client's list after its own constructor ran).
   */
  public static void addTo(Object madeBuilder) {
    try {
      OkHttpClient.Builder builder = (OkHttpClient.Builder) madeBuilder;
      List<Interceptor> interceptors = builder.interceptors();
      boolean present = false;
      for (Iterator<Interceptor> it = interceptors.iterator(); it.hasNext(); ) {
        Interceptor interceptor = it.next();
        // by name: a copy injected into another class loader is the same interceptor
        if (interceptor != null
            && interceptor.getClass().getName().equals(TollgateInterceptor.class.getName())) {
          if (present) {
            it.remove();
          }
          present = true;
        }
      }
      if (!present) {
        interceptors.add(0, new TollgateInterceptor());
      }
    } catch (Throwable e) {
      // called before the builder's constructor returns, where nothing may be thrown
      InternalFailures.adviceFailed(e);
    }
  }

  @Override
  public Response intercept(Chain chain) throws IOException {
    Request request = chain.request();
    Gate through = null;
    boolean mayPause = true;
    Tenants.Scope tenant = null;
    try {
      Gate configured = gate != null ? gate : AgentGates.gate();
      if (configured != null && configured.watchesHost(request.url().host())) {
        through = configured;
        // The agent marks the app's thread inside execute(): anywhere else (the dispatcher of
        // enqueue) no thread may sleep, nor wait for room. Without the agent, the gate decides.
        mayPause = gate != null || CallerThreads.mayWait();
        tenant = EnqueuedTenants.bindFor(chain.call());
      }
    } catch (RuntimeException | LinkageError e) {
      InternalFailures.record(WHERE, e);
    }
    if (through == null) {
      return chain.proceed(request);
    }
    try {
      return GatedCall.run(through, chain, request, mayPause);
    } finally {
      if (tenant != null) {
        tenant.close();
      }
    }
  }
}
