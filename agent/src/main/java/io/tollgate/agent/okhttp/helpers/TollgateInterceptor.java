package io.tollgate.agent.okhttp.helpers;

import io.tollgate.agent.AgentGates;
import io.tollgate.agent.InternalFailures;
import io.tollgate.gate.Gate;
import java.io.IOException;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;
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

  private final Supplier<Gate> gates;

  /** The agent's: the gate of this JVM while Tollgate runs, nothing otherwise. */
  public TollgateInterceptor() {
    this(AgentGates::forCurrentThread);
  }

  /** Through {@code gate}, without the agent. */
  public TollgateInterceptor(Gate gate) {
    Objects.requireNonNull(gate, "gate");
    this.gates = () -> gate;
  }

  private TollgateInterceptor(Supplier<Gate> gates) {
    this.gates = gates;
  }

  /**
   * Makes Tollgate's interceptor the first application interceptor of {@code builder}, once: a
   * builder copied from a client ({@code client.newBuilder()}) already has one, possibly twice
   * (OkHttp 4 copies the client's list after its own constructor ran).
   */
  public static void addTo(OkHttpClient.Builder builder) {
    List<Interceptor> interceptors = builder.interceptors();
    boolean present = false;
    for (Iterator<Interceptor> it = interceptors.iterator(); it.hasNext(); ) {
      Interceptor interceptor = it.next();
      // by name: a copy injected into another class loader is the same interceptor
      if (interceptor != null && interceptor.getClass().getName().equals(TollgateInterceptor.class.getName())) {
        if (present) {
          it.remove();
        }
        present = true;
      }
    }
    if (!present) {
      interceptors.add(0, new TollgateInterceptor());
    }
  }

  @Override
  public Response intercept(Chain chain) throws IOException {
    Request request = chain.request();
    Gate gate = null;
    try {
      Gate candidate = gates.get();
      if (candidate != null && candidate.watchesHost(request.url().host())) {
        gate = candidate;
      }
    } catch (RuntimeException | LinkageError e) {
      InternalFailures.record(WHERE, e);
    }
    if (gate == null) {
      return chain.proceed(request);
    }
    return GatedCall.run(gate, chain, request);
  }
}
