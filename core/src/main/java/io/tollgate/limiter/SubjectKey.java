package io.tollgate.limiter;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Objects;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The secret key of {@link Subject#keyed}: HMAC-SHA256 over {@code scope NUL id}. Without it, who can
 * read Redis keys, spans or logs can test a guessed tenant id by hashing it; with it, only who holds
 * the key can. It prints as {@code ***}.
 */
public final class SubjectKey {

  /** The shortest key accepted, in bytes. */
  public static final int MIN_BYTES = 16;

  private static final String ALGORITHM = "HmacSHA256";

  /** Initialised once and cloned for each digest: {@code Mac.getInstance} is the costly part. */
  private final Mac prototype;
  private final SecretKeySpec key;

  private SubjectKey(byte[] key) {
    this.key = new SecretKeySpec(key, ALGORITHM);
    this.prototype = initialised(this.key);
  }

  /**
   * A key of at least {@link #MIN_BYTES} bytes.
   *
   * @throws IllegalArgumentException when it is shorter (the message names no byte of it)
   */
  public static SubjectKey of(byte[] key) {
    Objects.requireNonNull(key, "key");
    if (key.length < MIN_BYTES) {
      throw new IllegalArgumentException("must be at least " + MIN_BYTES + " bytes, was " + key.length);
    }
    return new SubjectKey(key.clone());
  }

  /** The HMAC-SHA256 of {@code scope}, a NUL byte and {@code id}, all UTF-8. */
  byte[] digest(String scope, String id) {
    Mac mac = fresh();
    mac.update(scope.getBytes(StandardCharsets.UTF_8));
    mac.update((byte) 0);
    return mac.doFinal(id.getBytes(StandardCharsets.UTF_8));
  }

  private Mac fresh() {
    try {
      return (Mac) prototype.clone();
    } catch (CloneNotSupportedException e) {
      return initialised(key); // a security provider whose HMAC cannot be cloned
    }
  }

  private static Mac initialised(SecretKeySpec key) {
    try {
      Mac mac = Mac.getInstance(ALGORITHM);
      mac.init(key);
      return mac;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("every Java runtime has " + ALGORITHM, e);
    }
  }

  @Override
  public String toString() {
    return "***";
  }
}
