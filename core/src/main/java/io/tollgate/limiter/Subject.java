package io.tollgate.limiter;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Who is charged: a scope chosen by Tollgate ({@code tenant}, {@code provider}) and an id from the
 * outside world. The id is never used raw: only a digest of it reaches Redis keys, logs and spans,
 * so API keys and hostile tenant ids stay out of all three. The digest is the first 120 bits of
 * SHA-256 over {@code scope NUL id} ({@link #of}), or of HMAC-SHA256 under a secret key over the same
 * bytes ({@link #keyed}), which a reader of Redis cannot reverse by hashing candidate ids.
 */
public final class Subject {

  /** The id hash of {@link #overflow}: no digest has it (digests are 20 base64url characters). */
  static final String OVERFLOW_HASH = "~overflow";

  private static final Pattern SCOPE = Pattern.compile("[a-z][a-z0-9-]{0,31}");
  static final int DIGEST_BYTES = 15; // 120 bits, 20 base64url characters
  private static final Base64.Encoder BASE64URL = Base64.getUrlEncoder().withoutPadding();
  /** Cloned for each digest: looking SHA-256 up among the security providers costs more than hashing. */
  private static final MessageDigest SHA256 = sha256();

  private final String scope;
  private final String idHash;
  private final String hashTag;

  private Subject(String scope, String idHash) {
    this.scope = scope;
    this.idHash = idHash;
    this.hashTag = "{" + scope + ":" + idHash + "}";
  }

  /**
   * @param scope a short lowercase word of Tollgate's own ({@code tenant}, {@code provider})
   * @param id any string, including one a client sent; it is hashed here (SHA-256)
   */
  public static Subject of(String scope, String id) {
    Objects.requireNonNull(id, "id");
    checkScope(scope);
    MessageDigest sha256 = fresh();
    sha256.update(scope.getBytes(StandardCharsets.UTF_8));
    sha256.update((byte) 0);
    return new Subject(scope, encode(sha256.digest(id.getBytes(StandardCharsets.UTF_8))));
  }

  /** As {@link #of}, the digest keyed by {@code key} (HMAC-SHA256) instead of plain SHA-256. */
  public static Subject keyed(String scope, String id, SubjectKey key) {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(key, "key");
    checkScope(scope);
    return new Subject(scope, encode(key.digest(scope, id)));
  }

  /**
   * The one subject of {@code scope} that charges every id a bounded table of subjects has no
   * room for ({@link BoundedSubjects}): {@code scope:~overflow}, which no id hashes to.
   */
  public static Subject overflow(String scope) {
    checkScope(scope);
    return new Subject(scope, OVERFLOW_HASH);
  }

  private static void checkScope(String scope) {
    if (scope == null || !SCOPE.matcher(scope).matches()) {
      throw new IllegalArgumentException("scope must match " + SCOPE + ", was " + scope);
    }
  }

  private static String encode(byte[] digest) {
    byte[] shortened = new byte[DIGEST_BYTES];
    System.arraycopy(digest, 0, shortened, 0, DIGEST_BYTES);
    return BASE64URL.encodeToString(shortened);
  }

  private static MessageDigest fresh() {
    try {
      return (MessageDigest) SHA256.clone();
    } catch (CloneNotSupportedException e) {
      return sha256(); // a security provider whose SHA-256 cannot be cloned
    }
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
  }

  public String scope() {
    return scope;
  }

  /** The id's digest ({@code ~overflow} for {@link #overflow}): safe for keys, logs and span attributes. */
  public String idHash() {
    return idHash;
  }

  /** True for the {@link #overflow} subject of its scope. */
  public boolean isOverflow() {
    return idHash.equals(OVERFLOW_HASH);
  }

  /** The Redis Cluster hash tag shared by every key of this subject: {@code {scope:hash}}. */
  public String hashTag() {
    return hashTag;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Subject other && scope.equals(other.scope) && idHash.equals(other.idHash);
  }

  @Override
  public int hashCode() {
    return scope.hashCode() * 31 + idHash.hashCode();
  }

  @Override
  public String toString() {
    return scope + ":" + idHash;
  }
}
