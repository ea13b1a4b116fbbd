package io.tollgate.samples.api;

import io.tollgate.gate.Admission;
import io.tollgate.gate.Gate;
import io.tollgate.gate.InboundBody;
import io.tollgate.gate.InboundRequest;
import io.tollgate.gate.TenantSource;
import io.tollgate.gate.Tenants;
import io.tollgate.llm.Headers;
import io.tollgate.llm.ProviderApi;
import io.tollgate.llm.SyntheticResponse;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * An inbound front end of one's own: what the servlet filter does with a request an app serves.
 * {@code app} serves it, given the limit headers to set, and returns the response body.
 */
public final class InboundExample {

  private InboundExample() {}

  /** The status the request is answered with. */
  public static int serve(Gate gate, HttpServletRequest request, byte[] heldBytes,
      Function<List<Headers.Field>, byte[]> app) throws IOException {
    Admission admission = gate.admitInbound(InboundRequest.builder(TenantSource.header("X-Tenant-Id"))
        .tenant(Optional.ofNullable(request.getHeader("X-Tenant-Id")))
        .user(Optional.ofNullable(request.getHeader("X-User-Id")))     // tenants.user-header, if set
        .api(ProviderApi.OPENAI).path(request.getRequestURI())
        .bodiless(false).body(() -> InboundBody.whole(heldBytes))   // read only when tokens are limited
        .build());
    Optional<SyntheticResponse> refusal = admission.refusal();   // 400/401/403 for the tenant, 429 for its limits
    if (refusal.isPresent()) {
      return refusal.get().status();                             // write it: done
    }
    List<Headers.Field> limitHeaders = admission.limitHeaders(); // x-ratelimit-* to set; none in shadow mode
    byte[] body;
    try (Tenants.Scope bound = admission.tenant()                 // empty: serve unbound
        .map(tenant -> Tenants.bind(tenant, admission.user().orElse(null))).orElse(null)) {
      body = app.apply(limitHeaders);
    }
    if (admission.settles()) {
      admission.onBytes(body, 0, body.length, () -> "application/json");   // the response body as written
    }
    admission.settle(200, null);   // once the response is complete (or failed): settles, ends the span
    return 200;
  }
}
