package io.tollgate.config;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Objects;

/**
 * A value that must not leak: an API key. Its {@link #toString()} is {@code ***}, so a secret that
 * ends up in a log line, an exception or a config dump shows nothing; only {@link #reveal()} gives
 * the value, at the one place that sends it.
 */
public final class Secret {

  /** What every secret prints as. */
  public static final String MASK = "***";

  private final String value;

  private Secret(String value) {
    this.value = value;
  }

  /** A secret holding {@code value}, which must not be empty. */
  public static Secret of(String value) {
    Objects.requireNonNull(value, "value");
    if (value.isEmpty()) {
      throw new IllegalArgumentException("a secret must not be empty");
    }
    return new Secret(value);
  }

  /** The secret itself; call it only where the value is sent, never to log it. */
  public String reveal() {
    return value;
  }

  @Override
  public boolean equals(Object o) {
    // Constant time: how long a comparison takes says nothing about the value.
    return o instanceof Secret other && MessageDigest.isEqual(
        value.getBytes(StandardCharsets.UTF_8), other.value.getBytes(StandardCharsets.UTF_8));
  }

  @Override
  public int hashCode() {
    return value.hashCode();
  }

  @Override
  public String toString() {
    return MASK;
  }
}
