package io.tollgate.config;

/** The {@code tollgate.tokens} section: how a call's token cost is estimated before it is known. */
public final class TokensConfig {

  public static final int DEFAULT_DEFAULT_MAX_OUTPUT = 1024;

  private static final TokensConfig DEFAULTS = new Builder().build();

  private final int defaultMaxOutput;

  private TokensConfig(Builder builder) {
    this.defaultMaxOutput = builder.defaultMaxOutput;
  }

  /** Reserves 1024 output tokens for a request that names no {@code max_tokens}. */
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

  @Override
  public boolean equals(Object o) {
    return o instanceof TokensConfig other && defaultMaxOutput == other.defaultMaxOutput;
  }

  @Override
  public int hashCode() {
    return Integer.hashCode(defaultMaxOutput);
  }

  @Override
  public String toString() {
    return "{default-max-output=" + defaultMaxOutput + "}";
  }

  /** Collects the section; each setter rejects a bad value at once. */
  public static final class Builder {
    private int defaultMaxOutput = DEFAULT_DEFAULT_MAX_OUTPUT;

    private Builder() {}

    public Builder defaultMaxOutput(int defaultMaxOutput) {
      if (defaultMaxOutput <= 0) {
        throw new ConfigException("default-max-output", "must be > 0, was " + defaultMaxOutput);
      }
      this.defaultMaxOutput = defaultMaxOutput;
      return this;
    }

    public TokensConfig build() {
      return new TokensConfig(this);
    }
  }
}
