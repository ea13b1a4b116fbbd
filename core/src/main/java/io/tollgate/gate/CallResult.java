package io.tollgate.gate;

import io.tollgate.llm.SyntheticResponse;
import java.util.Objects;

/**
 * What the front end hands to the app: a provider's own response (whose body the front end feeds
 * through {@link Forwarded#usage()} as the app reads it), or a response Tollgate made up in the
 * provider's own shape (a 429 when limited, a 503 when no provider can take the call).
 */
public sealed interface CallResult<R> {

  /** The provider that answered, or that the synthetic response speaks for. */
  String provider();

  /** A provider's response; {@code usage} settles the reservation from the body as it is read. */
  record Forwarded<R>(String provider, R response, UsageObserver usage, int attempts)
      implements CallResult<R> {
    public Forwarded {
      Objects.requireNonNull(provider, "provider");
      Objects.requireNonNull(usage, "usage");
    }
  }

  /** Tollgate's own answer, shaped like the provider's. */
  record Synthetic<R>(String provider, SyntheticResponse response, int attempts)
      implements CallResult<R> {
    public Synthetic {
      Objects.requireNonNull(provider, "provider");
      Objects.requireNonNull(response, "response");
    }
  }
}
