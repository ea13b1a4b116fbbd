package io.tollgate.config;

/** The {@code tollgate.tokens} section: how a call's token cost is estimated before it is known. */
public final class TokensConfig {

  public static final int DEFAULT_DEFAULT_MAX_OUTPUT = 1024;
  /** {@code max-buffered-body} when not set: 1 MiB. */
  public static final int DEFAULT_MAX_BUFFERED_BODY = 1 << 20;
  /** The largest {@code max-buffered-body} accepted: 64 MiB. */
  public static final int MAX_MAX_BUFFERED_BODY = 64 << 20;

  private static final TokensConfig DEFAULTS = new Builder().build();

  private final int defaultMaxOutput;
  private final int maxBufferedBody;

  private TokensConfig(Builder builder) {
    this.defaultMaxOutput = builder.defaultMaxOutput;
    this.maxBufferedBody = builder.maxBufferedBody;
  }

  /** Reserves 1024 output tokens for a request that names no {@code max_tokens}; holds 1 MiB of a body. */
  public static TokensConfig ofDefaults() {
    return DEFAULTS;
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * {@code default-max-output}: output tokens reserved for a request that names no
   * {@code max_tokens} / {@code max_completion_tokens}, until its usage settles the difference;
   * default 1024.
   */
  public int defaultMaxOutput() {
    return defaultMaxOutput;
  }

  /**
   * {@code max-buffered-body}: the most bytes of one body Tollgate holds in memory, default 1 MiB,
   * at most 64 MiB. A request body up to it is held whole (read for its estimate, sent again to a
   * fallback); of a larger one only this much is held (read for its model and output cap) and the
   * rest streams through, its prompt estimated from its size and never sent again. A failed
   * response larger than it is not held for a fallback: it goes to the app as it is.
   */
  public int maxBufferedBody() {
    return maxBufferedBody;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TokensConfig other && defaultMaxOutput == other.defaultMaxOutput
        && maxBufferedBody == other.maxBufferedBody;
  }

  @Override
  public int hashCode() {
    return 31 * Integer.hashCode(defaultMaxOutput) + Integer.hashCode(maxBufferedBody);
  }

  @Override
  public String toString() {
    return "{default-max-output=" + defaultMaxOutput
        + ", max-buffered-body=" + ByteSizes.format(maxBufferedBody) + "}";
  }

  /** Collects the section; each setter rejects a bad value at once. */
  public static final class Builder {
    private int defaultMaxOutput = DEFAULT_DEFAULT_MAX_OUTPUT;
    private int maxBufferedBody = DEFAULT_MAX_BUFFERED_BODY;

    private Builder() {}

    public Builder defaultMaxOutput(int defaultMaxOutput) {
      if (defaultMaxOutput <= 0) {
        throw new ConfigException("default-max-output", "must be > 0, was " + defaultMaxOutput);
      }
      this.defaultMaxOutput = defaultMaxOutput;
      return this;
    }

    /** In bytes, 0 to {@link #MAX_MAX_BUFFERED_BODY}; 0 holds no body at all. */
    public Builder maxBufferedBody(long bytes) {
      if (bytes < 0 || bytes > MAX_MAX_BUFFERED_BODY) {
        throw new ConfigException("max-buffered-body", "must be from 0 to "
            + ByteSizes.format(MAX_MAX_BUFFERED_BODY) + ", was " + ByteSizes.format(bytes));
      }
      this.maxBufferedBody = (int) bytes;
      return this;
    }

    public TokensConfig build() {
      return new TokensConfig(this);
    }
  }
}
