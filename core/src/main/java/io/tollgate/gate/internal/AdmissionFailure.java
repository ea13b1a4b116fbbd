package io.tollgate.gate.internal;

import io.tollgate.config.ProviderConfig;
import io.tollgate.config.TollgateConfig;
import io.tollgate.gate.CallResult;
import io.tollgate.limiter.FailurePolicy;
import java.lang.System.Logger.Level;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A failure of Tollgate's own code while a call is admitted (read, estimated, reserved): a bug,
 * not a refusal. It is decided by {@code redis.on-failure}: under {@code fail-closed} the call is
 * refused with the provider's own 503 and nothing is sent; otherwise (fail-open, the default, and
 * without Redis) the failure goes on to the front end, which sends the call as if Tollgate were
 * absent and counts it.
 */
public final class AdmissionFailure {

  private static final System.Logger LOG = System.getLogger(AdmissionFailure.class.getName());
  static final String MESSAGE = "Tollgate could not decide on this request; refused under"
      + " redis.on-failure: fail-closed. Retry later.";

  private final GateParts parts;
  private final boolean failClosed;
  private final AtomicBoolean logged = new AtomicBoolean();

  public AdmissionFailure(GateParts parts) {
    this.parts = parts;
    TollgateConfig config = parts.config();
    this.failClosed = config.redis().map(redis -> redis.onFailure() == FailurePolicy.FAIL_CLOSED)
        .orElse(false);
  }

  /**
   * The refusal of a call to {@code provider} under fail-closed.
   *
   * @throws RuntimeException {@code failure} itself, when the policy lets the call go
   */
  public <R> CallResult<R> refuseOrRethrow(ProviderConfig provider, RuntimeException failure) {
    if (!failClosed) {
      throw failure;
    }
    if (logged.compareAndSet(false, true)) {
      LOG.log(Level.WARNING, "internal failure while admitting a call (logged once; such calls are"
          + " refused under fail-closed): " + failure, failure);
    }
    return new CallResult.Synthetic<>(provider.name(),
        parts.protocol(provider).syntheticUnavailable(null, MESSAGE), 0);
  }
}
