package io.tollgate.gate;

import io.tollgate.gate.internal.RecentCounts;
import io.tollgate.limiter.Charge;
import io.tollgate.llm.Quota;
import io.tollgate.llm.QuotaKind;
import io.tollgate.router.BreakerTransition;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.Deque;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What a gate has seen lately, for the status page (docs/operations.md): per provider its answers,
 * refusals and breaker transitions over the last five minutes and the quota it last reported; the
 * busiest tenants; the latest decisions that were not a plain admission. The gate records; the
 * status page reads snapshots. Tenants appear only as their hash, or as the name the operator gave
 * them under {@code overrides}; model names are cut to the length spans allow.
 */
public final class Activity {

  /** Decisions kept for the page, newest first. */
  public static final int RECENT_DECISIONS = 100;
  /** Tenants followed at once; the least recently seen makes room for a new one. */
  public static final int MAX_TENANTS = 512;
  /** Breaker transitions kept per provider. */
  public static final int TRANSITIONS_KEPT = 10;

  private final Clock clock;
  private final Map<String, ProviderLog> providers = new LinkedHashMap<>();
  private final ConcurrentHashMap<String, TenantLog> tenants = new ConcurrentHashMap<>();
  private final Deque<DecisionEvent> recent = new ArrayDeque<>();

  public Activity(Collection<String> providers, Clock clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
    providers.forEach(name -> this.providers.put(name, new ProviderLog()));
  }

  /**
   * A decision of the gate or the filter.
   *
   * @param at when it was made
   * @param decision the {@code tollgate.decision} value
   * @param direction {@code outbound} (a call) or {@code inbound} (the filter)
   * @param provider the provider that answered, else the one addressed; null inbound
   * @param fallbackFrom the provider addressed, when a fallback answered
   * @param tenant the tenant's hash or the operator's name for it; null when none is bound
   * @param limit the limit that refused ({@code tenant:tokens-per-minute}), when one did
   * @param degraded decided without Redis
   * @param model the model sent, cut to the length spans allow; null when unknown
   */
  public record DecisionEvent(Instant at, String decision, String direction, String provider,
      String fallbackFrom, String tenant, String limit, boolean degraded, String model) {}

  /** A breaker's change of state, as the page lists it. */
  public record Transition(Instant at, String from, String to, String reason) {}

  /**
   * A provider over the last five minutes.
   *
   * @param attempts requests sent to it that were answered or failed, per second over the last 10 s
   * @param answered requests it answered in the last five minutes
   * @param rateLimited 429s it answered in the last five minutes
   * @param failed 5xx it answered, or connections and timeouts that failed, in the last five minutes
   * @param refused calls addressed to it that Tollgate refused (a limit, or none could take it)
   * @param transitions its latest breaker transitions, newest first
   * @param reported the quota its headers reported last, by kind; empty when it reports none
   * @param reportedAt when it was reported, or null
   */
  public record ProviderSnapshot(double attempts, long answered, long rateLimited, long failed,
      long refused, List<Transition> transitions, Map<QuotaKind, Quota> reported, Instant reportedAt) {}

  /**
   * A tenant over the last five minutes.
   *
   * @param name its hash, or the operator's name for it
   * @param calls calls and inbound requests charged to it
   * @param refused of those, the ones refused
   * @param lastSeen its latest decision
   * @param outbound what its LLM calls are charged on, when they are limited
   * @param inbound what its inbound requests are charged on, when they are limited
   */
  public record TenantSnapshot(String name, long calls, long refused, Instant lastSeen,
      Charge outbound, Charge inbound) {}

  /** A provider answered with {@code status}; {@code reported} is what its rate-limit headers said. */
  public void answered(String provider, int status, Map<QuotaKind, Quota> reported) {
    ProviderLog log = providers.get(provider);
    if (log == null) {
      return;
    }
    long now = second();
    log.attempts.add(now);
    log.answered.add(now);
    if (status == 429) {
      log.rateLimited.add(now);
    } else if (status >= 500) {
      log.failed.add(now);
    }
    if (!reported.isEmpty()) {
      log.reported = new Reported(new EnumMap<>(reported), clock.instant());
    }
  }

  /** A request to {@code provider} failed before an answer: refused connection, timeout. */
  public void unreachable(String provider) {
    ProviderLog log = providers.get(provider);
    if (log != null) {
      long now = second();
      log.attempts.add(now);
      log.failed.add(now);
    }
  }

  /** A breaker changed state. */
  public void transition(BreakerTransition transition) {
    ProviderLog log = providers.get(transition.provider());
    if (log == null) {
      return;
    }
    synchronized (log.transitions) {
      log.transitions.addFirst(new Transition(transition.at(), name(transition.from()),
          name(transition.to()), name(transition.reason())));
      while (log.transitions.size() > TRANSITIONS_KEPT) {
        log.transitions.removeLast();
      }
    }
  }

  /**
   * A decision was made.
   *
   * @param tenantKey the tenant's subject hash: who is counted (null when none is bound)
   * @param charge what the tenant was charged on, null when its calls are not limited
   */
  public void decided(DecisionEvent event, String tenantKey, Charge charge) {
    boolean refused = isRefusal(event.decision());
    if (refused && event.direction().equals("outbound")) {
      ProviderLog log = providers.get(event.provider());
      if (log != null) {
        log.refused.add(event.at().getEpochSecond());
      }
    }
    if (tenantKey != null) {
      tenant(tenantKey, event).count(event, refused, charge);
    }
    if (!isPlain(event)) {
      synchronized (recent) {
        recent.addFirst(event);
        while (recent.size() > RECENT_DECISIONS) {
          recent.removeLast();
        }
      }
    }
  }

  /** The providers, in the configuration's order. */
  public Map<String, ProviderSnapshot> providers() {
    long now = second();
    Map<String, ProviderSnapshot> snapshots = new LinkedHashMap<>();
    providers.forEach((name, log) -> {
      List<Transition> transitions;
      synchronized (log.transitions) {
        transitions = List.copyOf(log.transitions);
      }
      Reported reported = log.reported;
      snapshots.put(name, new ProviderSnapshot(log.attempts.last(now, 10) / 10.0,
          log.answered.last(now, RecentCounts.SECONDS), log.rateLimited.last(now, RecentCounts.SECONDS),
          log.failed.last(now, RecentCounts.SECONDS), log.refused.last(now, RecentCounts.SECONDS),
          transitions, reported == null ? Map.of() : reported.quotas,
          reported == null ? null : reported.at));
    });
    return snapshots;
  }

  /** The {@code n} tenants with the most calls in the last five minutes, busiest first. */
  public List<TenantSnapshot> busiestTenants(int n) {
    long now = second();
    List<TenantSnapshot> all = new ArrayList<>();
    for (TenantLog log : tenants.values()) {
      long calls = log.calls.last(now, RecentCounts.SECONDS);
      if (calls > 0) {
        all.add(new TenantSnapshot(log.name, calls, log.refused.last(now, RecentCounts.SECONDS),
            Instant.ofEpochSecond(log.calls.lastSecond()), log.outbound, log.inbound));
      }
    }
    all.sort(Comparator.comparingLong(TenantSnapshot::calls).reversed()
        .thenComparing(TenantSnapshot::name));
    return all.size() > n ? List.copyOf(all.subList(0, n)) : all;
  }

  /** The latest decisions that were not a plain admission, newest first. */
  public List<DecisionEvent> recentDecisions() {
    synchronized (recent) {
      return List.copyOf(recent);
    }
  }

  private TenantLog tenant(String key, DecisionEvent event) {
    TenantLog log = tenants.get(key);
    if (log != null) {
      return log;
    }
    if (tenants.size() >= MAX_TENANTS) {
      makeRoom();
    }
    return tenants.computeIfAbsent(key, k -> new TenantLog(event.tenant()));
  }

  /**
   * Forgets the eighth of the tenants seen least recently, in one scan: a flood of new tenant ids
   * then costs one scan per {@code MAX_TENANTS / 8} of them, not one per id.
   */
  private void makeRoom() {
    synchronized (tenants) {
      if (tenants.size() < MAX_TENANTS) {
        return; // another thread made room
      }
      tenants.entrySet().stream()
          .sorted(Comparator.comparingLong(entry -> entry.getValue().calls.lastSecond()))
          .limit(MAX_TENANTS / 8)
          .map(Map.Entry::getKey)
          .toList()
          .forEach(tenants::remove);
    }
  }

  /** Refused by Tollgate: a limit, a missing or unknown tenant, no provider able to take it. */
  static boolean isRefusal(String decision) {
    return switch (decision) {
      case "denied", "unavailable", "missing_tenant", "invalid_tenant", "unknown_tenant" -> true;
      default -> false;
    };
  }

  private static boolean isPlain(DecisionEvent event) {
    return !event.degraded()
        && (event.decision().equals("allowed") || event.decision().equals("shadow_allowed"));
  }

  private long second() {
    return clock.instant().getEpochSecond();
  }

  private static String name(Enum<?> value) {
    return value.name().toLowerCase(java.util.Locale.ROOT);
  }

  private record Reported(Map<QuotaKind, Quota> quotas, Instant at) {}

  private static final class ProviderLog {
    final RecentCounts attempts = new RecentCounts();
    final RecentCounts answered = new RecentCounts();
    final RecentCounts rateLimited = new RecentCounts();
    final RecentCounts failed = new RecentCounts();
    final RecentCounts refused = new RecentCounts();
    final Deque<Transition> transitions = new ArrayDeque<>();
    volatile Reported reported;
  }

  private static final class TenantLog {
    final String name;
    final RecentCounts calls = new RecentCounts();
    final RecentCounts refused = new RecentCounts();
    volatile Charge outbound;
    volatile Charge inbound;

    TenantLog(String name) {
      this.name = name;
    }

    void count(DecisionEvent event, boolean wasRefused, Charge charge) {
      long second = event.at().getEpochSecond();
      calls.add(second);
      if (wasRefused) {
        refused.add(second);
      }
      if (charge != null) {
        if (event.direction().equals("inbound")) {
          inbound = charge;
        } else {
          outbound = charge;
        }
      }
    }
  }
}
