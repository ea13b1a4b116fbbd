package io.tollgate.limiter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/** {@link Subject#keyed}: HMAC-SHA256 under the key, as an independent computation gives it. */
class KeyedSubjectTest {

  private static final byte[] KEY = "0123456789abcdef-tenant-hash-key".getBytes(StandardCharsets.UTF_8);

  /** The documented digest, computed here with the JDK alone: 15 bytes of HMAC-SHA256(key, scope NUL id). */
  private static String hmac(byte[] key, String scope, String id) throws Exception {
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(key, "HmacSHA256"));
    byte[] full = mac.doFinal((scope + "\u0000" + id).getBytes(StandardCharsets.UTF_8));
    return Base64.getUrlEncoder().withoutPadding().encodeToString(Arrays.copyOf(full, 15));
  }

  @Test
  void theKeyedHashIsTheHmacOfScopeAndId() throws Exception {
    SubjectKey key = SubjectKey.of(KEY);

    for (String id : new String[] {"acme", "ACME", "key:S-MbjOT6yX7Bw0ZtgS5lNRoh7DCP6AuK0fonv8ylE84", "{x}"}) {
      Subject subject = Subject.keyed("inbound", id, key);
      assertThat(subject.idHash()).as(id).isEqualTo(hmac(KEY, "inbound", id));
      assertThat(subject.hashTag()).isEqualTo("{inbound:" + hmac(KEY, "inbound", id) + "}");
    }
  }

  @Test
  void theKeyedHashDiffersFromThePlainOneAndFromAnotherKeys() throws Exception {
    byte[] other = "fedcba9876543210-another-hash-key".getBytes(StandardCharsets.UTF_8);

    assertThat(Subject.keyed("tenant", "acme", SubjectKey.of(KEY)))
        .isNotEqualTo(Subject.of("tenant", "acme"))
        .isNotEqualTo(Subject.keyed("tenant", "acme", SubjectKey.of(other)))
        .isEqualTo(Subject.keyed("tenant", "acme", SubjectKey.of(KEY.clone())));
  }

  @Test
  void aKeyShorterThan16BytesIsRefused() {
    assertThatThrownBy(() -> SubjectKey.of(new byte[15]))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("must be at least 16 bytes, was 15");
    assertThat(SubjectKey.of(new byte[16])).hasToString("***");
  }

  @Test
  void theOverflowSubjectIsNoIdsHash() {
    Subject overflow = Subject.overflow("inbound");

    assertThat(overflow.isOverflow()).isTrue();
    assertThat(overflow.hashTag()).isEqualTo("{inbound:~overflow}");
    assertThat(Subject.of("inbound", "~overflow").isOverflow()).isFalse();
    assertThat(Subject.of("inbound", "~overflow")).isNotEqualTo(overflow);
  }
}
