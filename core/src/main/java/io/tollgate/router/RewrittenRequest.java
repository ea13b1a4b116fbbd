package io.tollgate.router;

import java.util.Objects;
import java.util.Optional;

/**
 * A request readied for the provider that will take it.
 *
 * @param from the provider the app addressed
 * @param to the provider the request now goes to; equal to {@code from} when it passes unchanged
 * @param request what to send
 * @param model the model {@code to} is asked for, after its model map (Azure: the deployment);
 *     empty when the request passes unchanged, or names no model
 */
public record RewrittenRequest(String from, String to, OutboundRequest request, Optional<String> model) {

  public RewrittenRequest {
    Objects.requireNonNull(from, "from");
    Objects.requireNonNull(to, "to");
    Objects.requireNonNull(request, "request");
    Objects.requireNonNull(model, "model");
  }

  /** False when the call goes to the provider the app addressed, with the app's own request. */
  public boolean rewritten() {
    return !from.equals(to);
  }
}
