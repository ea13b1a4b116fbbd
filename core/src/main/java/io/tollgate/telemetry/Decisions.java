package io.tollgate.telemetry;

/** The values of {@code tollgate.decision}. */
public final class Decisions {

  /** Sent to the provider addressed (outbound), or admitted (inbound). */
  public static final String ALLOWED = "allowed";
  /** Sent to a fallback provider. */
  public static final String FALLBACK = "fallback";
  /** Refused by Tollgate's limiter: a synthetic 429. */
  public static final String DENIED = "denied";
  /** No provider could take the call (breakers open, cooling down): a synthetic 503. */
  public static final String UNAVAILABLE = "unavailable";
  /** Every provider failed; the app got the last provider's own failure response. */
  public static final String UPSTREAM_ERROR = "upstream_error";
  /** No provider answered at all; the app got its client's exception. */
  public static final String ERROR = "error";
  /** Shadow mode: the limits had room. */
  public static final String SHADOW_ALLOWED = "shadow_allowed";
  /** Shadow mode: the limits would have refused; the call went through anyway. */
  public static final String SHADOW_DENIED = "shadow_denied";
  /** Inbound: the request named no tenant and was refused. */
  public static final String MISSING_TENANT = "missing_tenant";
  /** Inbound: the request's tenant id broke the id rule (length, characters) and was refused. */
  public static final String INVALID_TENANT = "invalid_tenant";
  /** Inbound: the request's user id ({@code tenants.user-header}) broke the id rule and was refused. */
  public static final String INVALID_USER = "invalid_user";
  /** Inbound: {@code tenants.known-only} and the tenant is not listed under overrides; refused. */
  public static final String UNKNOWN_TENANT = "unknown_tenant";

  private Decisions() {}
}
