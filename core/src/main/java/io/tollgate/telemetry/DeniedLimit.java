package io.tollgate.telemetry;

import io.tollgate.limiter.Decision;
import io.tollgate.limiter.Limit;
import io.tollgate.limiter.LimitState;
import java.time.Duration;

/** Names the limit that refused a call, for {@code tollgate.limit}: {@code tenant:tokens-per-minute}. */
public final class DeniedLimit {

  private DeniedLimit() {}

  /**
   * @param scope the denied subject's scope ({@code tenant}, {@code provider}, {@code inbound})
   * @param denial a decision that did not allow
   * @param tokens the tokens asked for
   */
  public static String name(String scope, Decision denial, long tokens) {
    return name(scope, denial, tokens, 0);
  }

  /**
   * As {@link #name(String, Decision, long)}, for a call that asked for {@code spend}
   * micro-dollars: {@code tenant:usd-per-day}; a model's limit is {@code provider:model:...}.
   */
  public static String name(String scope, Decision denial, long tokens, long spend) {
    LimitState refusing = null;
    for (LimitState state : denial.limits()) {
      long cost = switch (state.limit().dimension()) {
        case REQUESTS -> 1;
        case TOKENS -> tokens;
        case SPEND -> spend;
      };
      if (state.limit().capacity() < cost || state.remaining() < cost) {
        refusing = state;
        break;
      }
    }
    if (refusing == null) {
      return scope + ":unknown";
    }
    return scope + (refusing.limit().group().isEmpty() ? "" : ":model") + ":" + key(refusing.limit());
  }

  /** The limit's configuration key: {@code tokens-per-minute}, {@code usd-per-month}. */
  public static String key(Limit limit) {
    return limit.dimension().label() + "-per-" + (limit.monthly() ? "month" : window(limit.window()));
  }

  private static String window(Duration window) {
    if (window.equals(Duration.ofSeconds(1))) {
      return "second";
    } else if (window.equals(Duration.ofMinutes(1))) {
      return "minute";
    } else if (window.equals(Duration.ofHours(1))) {
      return "hour";
    } else if (window.equals(Duration.ofDays(1))) {
      return "day";
    }
    return window.toString();
  }
}
