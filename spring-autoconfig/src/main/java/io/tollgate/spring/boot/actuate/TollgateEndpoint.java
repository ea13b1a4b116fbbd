package io.tollgate.spring.boot.actuate;

import io.tollgate.config.LimitsConfig;
import io.tollgate.config.ProviderConfig;
import io.tollgate.config.TenantsConfig;
import io.tollgate.gate.Gate;
import io.tollgate.limiter.Decision;
import io.tollgate.limiter.Dimension;
import io.tollgate.limiter.LimitProbe;
import io.tollgate.limiter.LimitState;
import io.tollgate.limiter.Limits;
import io.tollgate.limiter.Outcome;
import io.tollgate.limiter.Subject;
import io.tollgate.llm.Prices;
import io.tollgate.router.HealthScore;
import io.tollgate.router.ProviderBreaker;
import io.tollgate.servlet.TollgateFilter;
import java.math.BigDecimal;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;

/**
 * {@code /actuator/tollgate}: the providers with their breaker states and health scores, and
 * {@code /actuator/tollgate/{tenant}}: what a tenant has left. The tenant appears in the answer
 * only as its hash, as everywhere in Tollgate; nothing here is logged. On the web the first also
 * serves the status page ({@link TollgateEndpointWebExtension}).
 */
@Endpoint(id = "tollgate")
public class TollgateEndpoint {

  private final Gate gate;

  public TollgateEndpoint(Gate gate) {
    this.gate = gate;
  }

  /**
   * The providers. On the web {@link TollgateEndpointWebExtension} answers in its place, with the
   * status page as well: an extension replaces only an operation of the same media types, so this
   * one declares them too.
   */
  @ReadOperation(producesFrom = EndpointFormat.class)
  public Map<String, Object> providers() {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("mode", name(gate.config().mode()));
    body.put("limiter", gate.config().redis().isPresent() ? "redis" : "in-memory");
    body.put("breakersShared", gate.breakers().isShared());
    Map<String, Double> scores = new LinkedHashMap<>();
    for (HealthScore score : gate.health().scores()) {
      scores.put(score.provider(), score.score());
    }
    Map<String, Object> providers = new LinkedHashMap<>();
    for (ProviderConfig provider : gate.config().providers().values()) {
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("baseUrl", withoutUserInfo(provider.baseUrl()));
      entry.put("api", provider.api().configName());
      ProviderBreaker breaker = gate.breakers().breaker(provider.name());
      entry.put("breaker", name(breaker.state()));
      breaker.openUntil().ifPresent(until -> entry.put("openUntil", until.toString()));
      entry.put("healthScore", scores.get(provider.name()));
      entry.put("fallbacks", provider.fallbacks());
      entry.put("limits", limits(provider.limits()));
      providers.put(provider.name(), entry);
    }
    body.put("providers", providers);
    return body;
  }

  /**
   * A tenant's remaining requests and tokens, inbound (the servlet filter's bucket) and outbound
   * (the LLM calls made on its behalf), read as a {@link LimitProbe}: the smallest cost reserved
   * and released at once.
   */
  @ReadOperation
  public Map<String, Object> tenant(@Selector String tenant) {
    Map<String, Object> body = new LinkedHashMap<>();
    TenantsConfig tenants = gate.config().tenants().orElse(null);
    // the subjects the filter and the gate charge: folded and keyed as the configuration says
    Subject outbound = tenants != null ? tenants.subject("tenant", tenant) : Subject.of("tenant", tenant);
    body.put("tenant", outbound.idHash());
    if (tenants == null || tenants.limitsFor(tenant).isEmpty()) {
      body.put("limited", false);
      return body;
    }
    LimitsConfig config = tenants.limitsFor(tenant);
    body.put("limited", true);
    body.put("limits", limits(config));
    Limits limits = config.toLimits();
    body.put("inbound", remaining(tenants.subject(TollgateFilter.SCOPE, tenant), limits));
    body.put("outbound", remaining(outbound, limits));
    return body;
  }

  private Map<String, Object> remaining(Subject subject, Limits limits) {
    LimitProbe read = LimitProbe.read(gate.limiter(), subject, limits);
    Decision probe = read.decision();
    Map<String, Object> left = new LinkedHashMap<>();
    // -1: no limit of that dimension applies
    if (probe.remainingRequests() >= 0) {
      left.put("remainingRequests", probe.remainingRequests() + read.taken(Dimension.REQUESTS));
    }
    if (probe.remainingTokens() >= 0) {
      left.put("remainingTokens", probe.remainingTokens() + read.taken(Dimension.TOKENS));
    }
    if (probe.outcome() != Outcome.NEVER_FITS) {
      spend(probe).forEach(left::put);
    }
    left.put("resetAfterMs", probe.resetAfter().toMillis());
    left.put("degraded", probe.degraded());
    return left;
  }

  /**
   * Each spend budget: {@code usd-per-day: {limitUsd, spentUsd, remainingUsd, resetAfterMs}}. The
   * probe took no spend, so what it saw left is what is left.
   */
  private static Map<String, Object> spend(Decision probe) {
    Map<String, Object> budgets = new LinkedHashMap<>();
    for (LimitState state : probe.limits()) {
      if (state.limit().dimension() != Dimension.SPEND || !state.limit().group().isEmpty()) {
        continue;
      }
      long limit = state.limit().capacity();
      Map<String, Object> budget = new LinkedHashMap<>();
      budget.put("limitUsd", usd(limit));
      budget.put("spentUsd", usd(limit - state.remaining()));
      budget.put("remainingUsd", usd(state.remaining()));
      budget.put("resetAfterMs", state.untilFull().toMillis());
      budgets.put(state.limit().monthly() ? "usd-per-month" : "usd-per-day", budget);
    }
    return budgets;
  }

  private static BigDecimal usd(long microUsd) {
    return Prices.toDollars(microUsd);
  }

  private static Map<String, Object> limits(LimitsConfig limits) {
    Map<String, Object> map = new LinkedHashMap<>();
    limits.requestsPerSecond().ifPresent(v -> map.put("requests-per-second", v));
    limits.requestsPerMinute().ifPresent(v -> map.put("requests-per-minute", v));
    limits.requestsPerHour().ifPresent(v -> map.put("requests-per-hour", v));
    limits.requestsPerDay().ifPresent(v -> map.put("requests-per-day", v));
    limits.tokensPerSecond().ifPresent(v -> map.put("tokens-per-second", v));
    limits.tokensPerMinute().ifPresent(v -> map.put("tokens-per-minute", v));
    limits.tokensPerHour().ifPresent(v -> map.put("tokens-per-hour", v));
    limits.tokensPerDay().ifPresent(v -> map.put("tokens-per-day", v));
    limits.usdPerDayMicros().ifPresent(v -> map.put("usd-per-day", usd(v)));
    limits.usdPerMonthMicros().ifPresent(v -> map.put("usd-per-month", usd(v)));
    return map;
  }

  private static String withoutUserInfo(URI uri) {
    return uri.toString().replaceFirst("//[^@/]*@", "//***@");
  }

  private static String name(Enum<?> value) {
    return value.name().toLowerCase(Locale.ROOT).replace('_', '-');
  }
}
