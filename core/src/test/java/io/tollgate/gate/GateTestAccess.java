package io.tollgate.gate;

import java.io.InputStream;
import java.net.http.HttpResponse;
import java.time.Duration;

/** Calls through a gate for tests outside this package. */
public final class GateTestAccess {

  private static final JdkTransport TRANSPORT = new JdkTransport(Duration.ofSeconds(15));

  private GateTestAccess() {}

  /** One chat call to {@code baseUrl} on behalf of {@code tenant}, its body read whole; its status. */
  public static int callAs(Gate gate, String baseUrl, String tenant) throws Exception {
    try (Tenants.Scope bound = Tenants.bind(tenant)) {
      CallResult<HttpResponse<InputStream>> result = gate.call(
          GateTestSupport.chat(baseUrl, "sk-app", GateTestSupport.CHAT), true, TRANSPORT);
      if (result instanceof CallResult.Forwarded<HttpResponse<InputStream>>) {
        GateTestSupport.readBody(result);
      }
      return GateTestSupport.status(result);
    }
  }
}
