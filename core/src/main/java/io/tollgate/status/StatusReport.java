package io.tollgate.status;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The status page's data, and the JSON API behind it (docs/operations.md, "The status API"): the
 * providers, the limits with what they have left, the fleet, and recent decisions. Field names are
 * the JSON's; a null field is left out. Nothing in it is a key, a password or a raw tenant id.
 *
 * @param generatedAt when it was made, on this instance's clock
 * @param version the Tollgate version of the instance that answers
 * @param mode {@code enforce}, {@code shadow} or {@code off}
 * @param limiter {@code redis} or {@code in-memory}
 * @param degraded true while the limiter decides without Redis
 */
public record StatusReport(Instant generatedAt, String version, String mode, String limiter,
    boolean degraded, List<Provider> providers, List<LimitSet> limits, List<LimitSet> tenants,
    List<Instance> fleet, List<Decision> decisions) {

  /**
   * A provider, as this instance sees it.
   *
   * @param breaker {@code closed}, {@code open} or {@code half_open}
   * @param openUntil while open, when a probe may go
   * @param healthScore 0 to 1: what fallbacks are ranked by
   * @param attemptsPerSecond requests sent to it per second, over the last 10 s
   * @param answered, rateLimited, failed, refused counts over the last five minutes (see
   *     {@link io.tollgate.gate.Activity.ProviderSnapshot})
   * @param reported the provider's own rate-limit headers, as last seen
   */
  public record Provider(String name, String api, String breaker, Instant openUntil,
      Double healthScore, double attemptsPerSecond, long answered, long rateLimited, long failed,
      long refused, List<Transition> transitions, Reported reported, List<String> fallbacks) {}

  public record Transition(Instant at, String from, String to, String reason) {}

  /** What the provider's headers said, by kind ({@code requests}, {@code tokens}, ...). */
  public record Reported(Instant at, Map<String, Quota> quotas) {}

  public record Quota(Long limit, Long remaining, Long resetAfterMs) {}

  /**
   * The limits one subject is charged on, with what each has left.
   *
   * @param scope {@code provider}, {@code model}, {@code tenant}
   * @param name the provider's name, {@code provider/model}, or the tenant's hash or operator name
   * @param calls calls charged in the last five minutes (tenants)
   * @param refused of those, refused (tenants), or calls Tollgate refused (providers)
   */
  public record LimitSet(String scope, String name, Long calls, Long refused, Instant lastSeen,
      List<Bucket> outbound, List<Bucket> inbound) {}

  /**
   * One limit.
   *
   * @param limit its key: {@code requests-per-minute}, {@code usd-per-day}
   * @param unit {@code requests}, {@code tokens} or {@code usd}
   * @param capacity the whole limit (dollars for {@code usd})
   * @param remaining what is left now
   * @param fullInMs until it is full again (a budget: until its day or month starts again)
   */
  public record Bucket(String limit, String unit, BigDecimal capacity, BigDecimal remaining,
      long fullInMs) {}

  /** An instance of the fleet ({@link io.tollgate.gate.Fleet.Instance}). */
  public record Instance(String name, String frontEnd, String version, boolean degraded,
      Instant started, Instant lastSeen, boolean self) {}

  /** A decision that was not a plain admission ({@link io.tollgate.gate.Activity.DecisionEvent}). */
  public record Decision(Instant at, String decision, String direction, String provider,
      String fallbackFrom, String tenant, String limit, boolean degraded, String model) {}
}
