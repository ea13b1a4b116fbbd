package io.tollgate.config;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Optional;

/**
 * The mode in force ({@code mode}, with {@code canary-percent} under {@link Mode#CANARY}), as the
 * configuration sets it or a live override replaces it, and what it means for one call.
 *
 * @param mode the mode as set
 * @param canaryPercent under {@link Mode#CANARY}, the share of tenants enforced, 0 to 100
 */
public record ModeSetting(Mode mode, int canaryPercent) {

  public ModeSetting {
    if (canaryPercent < 0 || canaryPercent > 100) {
      throw new ConfigException("canary-percent", "must be between 0 and 100, was " + canaryPercent);
    }
  }

  /**
   * Reads {@code mode} and {@code canary-percent} as the configuration's root holds them, for a
   * mode set at runtime.
   *
   * @throws ConfigException naming the key at fault
   */
  public static ModeSetting parse(java.util.Map<String, String> texts) {
    for (String key : texts.keySet()) {
      if (!key.equals("mode") && !key.equals("canary-percent")) {
        throw new ConfigException(TollgateConfig.ROOT + "." + key, "is not a key of a mode setting:"
            + " mode and canary-percent are");
      }
    }
    String modeText = texts.get("mode");
    if (modeText == null) {
      throw new ConfigException(TollgateConfig.ROOT + ".mode", "is required");
    }
    TollgateConfig.Builder b = TollgateConfig.builder();
    try {
      b.mode(Values.oneOf(Mode.class, modeText));
    } catch (IllegalArgumentException e) {
      throw new ConfigException(TollgateConfig.ROOT + ".mode", e.getMessage() + ", was "
          + ConfigException.shown(modeText));
    }
    String percent = texts.get("canary-percent");
    if (percent != null) {
      int value;
      try {
        value = Values.intNumber(percent);
      } catch (IllegalArgumentException e) {
        throw new ConfigException(TollgateConfig.ROOT + ".canary-percent", e.getMessage()
            + ", was " + ConfigException.shown(percent));
      }
      b.canaryPercent(value);
    }
    return b.build().modeSetting();
  }

  /** The keys of this setting as the configuration's root writes them: {@link #parse} reads them back. */
  public java.util.Map<String, String> texts() {
    java.util.Map<String, String> texts = new java.util.LinkedHashMap<>();
    texts.put("mode", Values.name(mode));
    if (mode == Mode.CANARY) {
      texts.put("canary-percent", Integer.toString(canaryPercent));
    }
    return texts;
  }

  /**
   * The mode of a call charged to {@code tenant}: under {@link Mode#CANARY} enforced for a tenant
   * in the canary, shadowed for the others (a call without a tenant counts as the tenant "");
   * else the mode as set.
   */
  public Mode forTenant(Optional<String> tenant) {
    if (mode != Mode.CANARY) {
      return mode;
    }
    return bucket(tenant.orElse("")) < canaryPercent ? Mode.ENFORCE : Mode.SHADOW;
  }

  /** 0 to 99, the same for a tenant on every instance and in every release. */
  static int bucket(String tenant) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256")
          .digest(("canary\0" + tenant).getBytes(StandardCharsets.UTF_8));
      int high = ((digest[0] & 0xff) << 24) | ((digest[1] & 0xff) << 16)
          | ((digest[2] & 0xff) << 8) | (digest[3] & 0xff);
      return Integer.remainderUnsigned(high, 100);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
  }

  @Override
  public String toString() {
    String name = Values.name(mode);
    return mode == Mode.CANARY ? name + " " + canaryPercent + "%" : name;
  }
}
