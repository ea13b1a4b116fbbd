package io.tollgate.llm;

import io.tollgate.limiter.Decision;
import io.tollgate.limiter.Dimension;
import io.tollgate.limiter.LimitState;
import io.tollgate.limiter.Outcome;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Why Tollgate refused a call: what a synthetic 429 says. Built with {@link #builder(Dimension)}
 * or from the limiter's {@link Decision} with {@link #from(Decision, long, String)}.
 */
public final class RateLimitNotice {

  private final Dimension limitedBy;
  private final Duration retryAfter;
  private final boolean neverFits;
  private final Optional<Quota> requests;
  private final Optional<Quota> tokens;
  private final Optional<Quota> spend;
  private final Optional<Duration> window;
  private final Optional<String> model;
  private final OptionalLong requestedTokens;
  private final OptionalLong requestedSpend;
  private final Optional<String> holder;

  private RateLimitNotice(Builder b) {
    this.limitedBy = b.limitedBy;
    this.retryAfter = b.retryAfter;
    this.neverFits = b.neverFits;
    this.requests = Optional.ofNullable(b.requests);
    this.tokens = Optional.ofNullable(b.tokens);
    this.spend = Optional.ofNullable(b.spend);
    this.requestedSpend = b.requestedSpend < 0 ? OptionalLong.empty() : OptionalLong.of(b.requestedSpend);
    this.window = Optional.ofNullable(b.window);
    this.model = Optional.ofNullable(b.model);
    this.requestedTokens = b.requestedTokens < 0 ? OptionalLong.empty() : OptionalLong.of(b.requestedTokens);
    this.holder = Optional.ofNullable(b.holder);
  }

  /** A notice of a refusal on {@code limitedBy}; fill in what is known. */
  public static Builder builder(Dimension limitedBy) {
    return new Builder(limitedBy);
  }

  /**
   * The notice for a denied (or never-fitting) decision of the limiter. The refusing dimension is
   * requests when no request is left, else tokens; each dimension's figures are those of its
   * tightest limit.
   *
   * @param requestedTokens the tokens the call asked to reserve
   * @param model the model asked for, or null
   */
  public static RateLimitNotice from(Decision decision, long requestedTokens, String model) {
    return from(decision, requestedTokens, 0, model);
  }

  /**
   * As {@link #from(Decision, long, String)}, for a call that asked to reserve {@code
   * requestedSpend} micro-dollars: a spend limit without room for it refuses before the others (a
   * spent budget is not a rate limit: waiting a little does not help).
   */
  public static RateLimitNotice from(Decision decision, long requestedTokens, long requestedSpend,
      String model) {
    Objects.requireNonNull(decision, "decision");
    LimitState tightestRequests = tightest(decision, Dimension.REQUESTS);
    LimitState tightestTokens = tightest(decision, Dimension.TOKENS);
    LimitState tightestSpend = tightest(decision, Dimension.SPEND);
    boolean neverFits = decision.outcome() == Outcome.NEVER_FITS;
    Dimension limitedBy = neverFits
        ? (tightestTokens != null && requestedTokens > tightestTokens.limit().capacity()
            ? Dimension.TOKENS : Dimension.REQUESTS)
        : (tightestRequests != null && tightestRequests.remaining() < 1
            ? Dimension.REQUESTS : Dimension.TOKENS);
    if (limitedBy == Dimension.TOKENS && tightestTokens == null && tightestRequests != null) {
      limitedBy = Dimension.REQUESTS;
    }
    if (tightestSpend != null && (neverFits ? requestedSpend > tightestSpend.limit().capacity()
        : tightestSpend.remaining() < requestedSpend)) {
      limitedBy = Dimension.SPEND;
    }
    Builder builder = builder(limitedBy)
        .retryAfter(limitedBy == Dimension.SPEND && !neverFits
            ? tightestSpend.untilFull() : decision.retryAfter())
        .neverFits(neverFits)
        .requestedTokens(requestedTokens)
        .requestedSpend(requestedSpend)
        .model(model);
    if (tightestSpend != null && !neverFits) {
      builder.spend(tightestSpend.limit().capacity(), tightestSpend.remaining(), tightestSpend.untilFull());
    }
    // a cost that never fits was refused without asking the backend: what remains is unknown
    if (tightestRequests != null && !neverFits) {
      builder.requests(tightestRequests.limit().capacity(), tightestRequests.remaining(), tightestRequests.untilFull());
    }
    if (tightestTokens != null && !neverFits) {
      builder.tokens(tightestTokens.limit().capacity(), tightestTokens.remaining(), tightestTokens.untilFull());
    }
    LimitState limiting = switch (limitedBy) {
      case REQUESTS -> tightestRequests;
      case TOKENS -> tightestTokens;
      case SPEND -> tightestSpend;
    };
    if (limiting != null) {
      builder.window(limiting.limit().window());
    }
    return builder.build();
  }

  private static LimitState tightest(Decision decision, Dimension dimension) {
    LimitState tightest = null;
    for (LimitState state : decision.limits()) {
      if (state.limit().dimension() == dimension
          && (tightest == null || state.remaining() < tightest.remaining())) {
        tightest = state;
      }
    }
    return tightest;
  }

  /** The dimension that refused: requests, tokens, or spend (a budget that is used up). */
  public Dimension limitedBy() {
    return limitedBy;
  }

  /** When the same call would be admitted; zero when it never would. */
  public Duration retryAfter() {
    return retryAfter;
  }

  /** True when the call asks for more than the limit's capacity: waiting will not help. */
  public boolean neverFits() {
    return neverFits;
  }

  public Optional<Quota> requests() {
    return requests;
  }

  public Optional<Quota> tokens() {
    return tokens;
  }

  /** The tightest spend limit's figures, in micro-dollars, when one refused or took part. */
  public Optional<Quota> spend() {
    return spend;
  }

  /** The micro-dollars the call asked to reserve, when it was priced. */
  public OptionalLong requestedSpend() {
    return requestedSpend;
  }

  /** The refusing limit's window (1 minute: "per min"), when known. */
  public Optional<Duration> window() {
    return window;
  }

  public Optional<String> model() {
    return model;
  }

  public OptionalLong requestedTokens() {
    return requestedTokens;
  }

  /**
   * Whose limit refused, when it is not the caller's own: {@code user} for the limits of a user
   * inside its tenant ({@code tenants.user-limits}), which the message names.
   */
  public Optional<String> holder() {
    return holder;
  }

  /** This notice, for a refusal on {@code holder}'s limits ({@link #holder()}). */
  public RateLimitNotice forHolder(String holder) {
    Builder b = builder(limitedBy).retryAfter(retryAfter).neverFits(neverFits).holder(holder);
    b.requests = requests.orElse(null);
    b.tokens = tokens.orElse(null);
    b.spend = spend.orElse(null);
    b.window = window.orElse(null);
    b.model = model.orElse(null);
    b.requestedTokens = requestedTokens.orElse(-1);
    b.requestedSpend = requestedSpend.orElse(-1);
    return b.build();
  }

  /** The figures of the refusing dimension, when known. */
  public Optional<Quota> limiting() {
    return switch (limitedBy) {
      case REQUESTS -> requests;
      case TOKENS -> tokens;
      case SPEND -> spend;
    };
  }

  /** Collects a notice; only the dimension is required. */
  public static final class Builder {
    private final Dimension limitedBy;
    private Duration retryAfter = Duration.ZERO;
    private boolean neverFits;
    private Quota requests;
    private Quota tokens;
    private Quota spend;
    private Duration window;
    private String model;
    private long requestedTokens = -1;
    private long requestedSpend = -1;
    private String holder;

    private Builder(Dimension limitedBy) {
      this.limitedBy = Objects.requireNonNull(limitedBy, "limitedBy");
    }

    public Builder retryAfter(Duration retryAfter) {
      Objects.requireNonNull(retryAfter, "retryAfter");
      if (retryAfter.isNegative()) {
        throw new IllegalArgumentException("retryAfter must be >= 0, was " + retryAfter);
      }
      this.retryAfter = retryAfter;
      return this;
    }

    public Builder neverFits(boolean neverFits) {
      this.neverFits = neverFits;
      return this;
    }

    /** The tightest request limit: its capacity, what is left, and the time until it is full. */
    public Builder requests(long limit, long remaining, Duration resetAfter) {
      this.requests = quota("requests", limit, remaining, resetAfter);
      return this;
    }

    /** The tightest token limit: its capacity, what is left, and the time until it is full. */
    public Builder tokens(long limit, long remaining, Duration resetAfter) {
      this.tokens = quota("tokens", limit, remaining, resetAfter);
      return this;
    }

    /** The tightest spend limit, in micro-dollars: its capacity, what is left, until it starts again. */
    public Builder spend(long limit, long remaining, Duration resetAfter) {
      this.spend = quota("spend", limit, remaining, resetAfter);
      return this;
    }

    public Builder requestedSpend(long requestedSpend) {
      this.requestedSpend = requestedSpend <= 0 ? -1 : requestedSpend;
      return this;
    }

    public Builder window(Duration window) {
      this.window = window;
      return this;
    }

    public Builder model(String model) {
      this.model = model == null || model.isBlank() ? null : model;
      return this;
    }

    public Builder requestedTokens(long requestedTokens) {
      this.requestedTokens = requestedTokens < 0 ? -1 : requestedTokens;
      return this;
    }

    /** Whose limit refused ({@link RateLimitNotice#holder()}): a lower-case noun such as {@code user}. */
    public Builder holder(String holder) {
      this.holder = holder == null || holder.isBlank() ? null : holder;
      return this;
    }

    public RateLimitNotice build() {
      return new RateLimitNotice(this);
    }

    private static Quota quota(String what, long limit, long remaining, Duration resetAfter) {
      if (limit <= 0 || remaining < 0) {
        throw new IllegalArgumentException(what + " limit must be > 0 and remaining >= 0, was "
            + limit + " and " + remaining);
      }
      Objects.requireNonNull(resetAfter, "resetAfter");
      return new Quota(OptionalLong.of(limit), OptionalLong.of(remaining),
          Optional.of(resetAfter.isNegative() ? Duration.ZERO : resetAfter));
    }
  }
}
