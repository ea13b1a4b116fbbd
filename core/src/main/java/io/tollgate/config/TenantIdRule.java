package io.tollgate.config;

/**
 * What a tenant id from outside may be: 1 to {@value #MAX_LENGTH} characters, each printable ASCII
 * other than the space ({@code !} to {@code ~}). Names, domains, e-mail addresses, UUIDs and
 * {@code key:} ids fit; a control character (a line break that would forge a log line), a space
 * ({@code "acme "} posing as {@code acme}), a character beyond ASCII (which containers decode from
 * header bytes each their own way) or a 10 KB id does not. The servlet filter refuses a request
 * whose tenant breaks the rule (400), and {@code tollgate.tenants.overrides} may only name ids that
 * keep it.
 */
public final class TenantIdRule {

  public static final int MAX_LENGTH = 128;
  /** The rule in words, for messages: it never shows the id at fault. */
  public static final String DESCRIPTION =
      "1 to " + MAX_LENGTH + " printable ASCII characters, without spaces or control characters";

  private TenantIdRule() {}

  public static boolean isValid(String id) {
    if (id == null || id.isEmpty() || id.length() > MAX_LENGTH) {
      return false;
    }
    for (int i = 0; i < id.length(); i++) {
      char c = id.charAt(i);
      if (c < '!' || c > '~') {
        return false;
      }
    }
    return true;
  }
}
