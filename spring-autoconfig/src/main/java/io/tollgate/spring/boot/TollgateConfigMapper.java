package io.tollgate.spring.boot;

import io.tollgate.config.BreakerConfig;
import io.tollgate.config.ConfigException;
import io.tollgate.config.LeasesConfig;
import io.tollgate.config.LimitsConfig;
import io.tollgate.config.ProviderConfig;
import io.tollgate.config.RedisConfig;
import io.tollgate.config.PriorityConfig;
import io.tollgate.config.StatusConfig;
import io.tollgate.config.TelemetryConfig;
import io.tollgate.config.TenantsConfig;
import io.tollgate.config.TokensConfig;
import io.tollgate.config.TollgateConfig;
import io.tollgate.llm.Price;
import java.util.function.Supplier;

/**
 * Turns the bound {@link TollgateProperties} into the core's {@link TollgateConfig} through the
 * core's own builders, so that every rule (ranges, URLs, fallbacks that loop, ...) is checked in
 * one place for every front end. A builder names keys relative to its section
 * ({@code requests-per-minute}); each error is placed under its full Spring key
 * ({@code tollgate.providers.openai.limits.requests-per-minute}).
 */
final class TollgateConfigMapper {

  static final String ROOT = TollgateConfig.ROOT;

  private TollgateConfigMapper() {}

  /** @throws ConfigException naming the full key of the first bad value */
  static TollgateConfig toConfig(TollgateProperties p) {
    TollgateConfig.Builder b = TollgateConfig.builder()
        .mode(p.getMode())
        .onLimit(p.getOnLimit())
        .maxWait(p.getMaxWait())
        .strict(p.isStrict())
        .credentialHeaders(p.getCredentialHeaders());
    if (p.getRedis() != null) {
      b.redis(under(ROOT + ".redis", () -> redis(p.getRedis())));
    }
    p.getProviders().forEach((name, provider) ->
        b.provider(under(ROOT + ".providers." + name, () -> provider(name, provider))));
    if (p.getTenants() != null) {
      b.tenants(under(ROOT + ".tenants", () -> tenants(p.getTenants())));
    }
    b.breaker(under(ROOT + ".breaker", () -> breaker(p.getBreaker())));
    b.tokens(under(ROOT + ".tokens", () -> TokensConfig.builder()
        .defaultMaxOutput(p.getTokens().getDefaultMaxOutput())
        .maxBufferedBody(p.getTokens().getMaxBufferedBody().toBytes()).build()));
    b.telemetry(TelemetryConfig.of(p.getTelemetry().getExport()));
    b.status(under(ROOT + ".status", () -> status(p.getStatus())));
    if (p.getPriority() != null) {
      b.priority(under(ROOT + ".priority", () -> priority(p.getPriority())));
    }
    p.getPrices().forEach((model, price) -> b.price(model, price(ROOT + ".prices." + model, price)));
    return b.build();
  }

  private static RedisConfig redis(TollgateProperties.Redis p) {
    RedisConfig.Builder b = RedisConfig.builder();
    if (p.getUrl() != null) {
      b.url(p.getUrl());
    }
    b.cluster(p.getCluster());
    return b.timeout(p.getTimeout())
        .onFailure(p.getOnFailure())
        .localShare(p.getLocalShare())
        .poolSize(p.getPoolSize())
        .reservationTtl(p.getReservationTtl())
        .verifyHost(p.isVerifyHost())
        .build();
  }

  private static ProviderConfig provider(String name, TollgateProperties.Provider p) {
    ProviderConfig.Builder b;
    try {
      b = ProviderConfig.builder(name);
    } catch (ConfigException e) {
      // names the provider itself, not a key below it
      throw new ConfigException(ROOT + ".providers." + name, e.problem(), e);
    }
    if (p.getBaseUrl() != null) {
      b.baseUrl(p.getBaseUrl());
    }
    b.api(p.getApi()).apiKey(p.getApiKey()).allowInsecure(p.isAllowInsecure());
    b.limits(under("limits", () -> limits(p.getLimits())));
    b.fallbacks(p.getFallbacks());
    b.modelMap(p.getModelMap());
    p.getModels().forEach((model, limits) ->
        b.model(model, under("models." + model, () -> limits(limits))));
    b.learnLimits(p.isLearnLimits());
    return b.build();
  }

  private static TenantsConfig tenants(TollgateProperties.Tenants p) {
    TenantsConfig.Builder b = TenantsConfig.builder();
    if (p.getHeader() != null) {
      b.header(p.getHeader());
    }
    if (p.getApiKeyHeader() != null) {
      b.apiKeyHeader(p.getApiKeyHeader());
    }
    b.limits(under("limits", () -> limits(p.getLimits())));
    p.getOverrides().forEach((tenant, limits) ->
        b.override(tenant, under("overrides." + tenant, () -> limits(limits))));
    if (p.getUserHeader() != null) {
      b.userHeader(p.getUserHeader());
    }
    b.userLimits(under("user-limits", () -> limits(p.getUserLimits())));
    b.caseInsensitive(p.isCaseInsensitive()).knownOnly(p.isKnownOnly()).maxTracked(p.getMaxTracked())
        .hashKey(p.getHashKey());
    return b.build();
  }

  static LimitsConfig limits(TollgateProperties.Limits p) {
    LimitsConfig.Builder b = LimitsConfig.builder();
    if (p.getRequestsPerSecond() != null) {
      b.requestsPerSecond(p.getRequestsPerSecond());
    }
    if (p.getRequestsPerMinute() != null) {
      b.requestsPerMinute(p.getRequestsPerMinute());
    }
    if (p.getRequestsPerHour() != null) {
      b.requestsPerHour(p.getRequestsPerHour());
    }
    if (p.getRequestsPerDay() != null) {
      b.requestsPerDay(p.getRequestsPerDay());
    }
    if (p.getTokensPerSecond() != null) {
      b.tokensPerSecond(p.getTokensPerSecond());
    }
    if (p.getTokensPerMinute() != null) {
      b.tokensPerMinute(p.getTokensPerMinute());
    }
    if (p.getTokensPerHour() != null) {
      b.tokensPerHour(p.getTokensPerHour());
    }
    if (p.getTokensPerDay() != null) {
      b.tokensPerDay(p.getTokensPerDay());
    }
    if (p.getUsdPerDay() != null) {
      b.usdPerDay(p.getUsdPerDay());
    }
    if (p.getUsdPerMonth() != null) {
      b.usdPerMonth(p.getUsdPerMonth());
    }
    if (p.getAlgorithm() != null) {
      b.algorithm(p.getAlgorithm());
    }
    if (p.getOnFailure() != null) {
      b.onFailure(p.getOnFailure());
    }
    if (p.getLeases() != null) {
      TollgateProperties.Leases leases = p.getLeases();
      b.leases(under("leases", () -> LeasesConfig.builder()
          .size(leases.getSize()).ttl(leases.getTtl()).build()));
    }
    return b.build();
  }

  private static Price price(String key, TollgateProperties.Price p) {
    try {
      if (p.getInput() == null || p.getOutput() == null) {
        throw new IllegalArgumentException((p.getInput() == null ? "input" : "output")
            + " is required, in USD per million tokens");
      }
      return Price.perMillion(p.getInput(), p.getCachedInput(), p.getOutput(), p.getCacheWrite());
    } catch (IllegalArgumentException e) {
      // Price names the field first: "cached-input may have at most 6 decimals, was ..."
      String message = String.valueOf(e.getMessage());
      int space = message.indexOf(' ');
      throw new ConfigException(key + "." + message.substring(0, Math.max(space, 0)),
          message.substring(space + 1));
    }
  }

  private static PriorityConfig priority(TollgateProperties.Priority p) {
    PriorityConfig.Builder b = PriorityConfig.builder();
    if (p.getHeader() != null) {
      b.header(p.getHeader());
    }
    if (p.getDefault() != null) {
      b.defaultClass(p.getDefault());
    }
    p.getClasses().forEach(b::priorityClass);
    p.getTenants().forEach(b::tenant);
    return b.build();
  }

  private static StatusConfig status(TollgateProperties.Status p) {
    StatusConfig.Builder b = StatusConfig.builder();
    if (p.getPort() != null) {
      b.port(p.getPort());
    }
    if (p.getPath() != null) {
      b.path(p.getPath());
    }
    // an empty token (an unset environment variable) is none, as in the agent's file
    return b.bind(p.getBind()).token(p.getToken()).build();
  }

  private static BreakerConfig breaker(TollgateProperties.Breaker p) {
    BreakerConfig.Builder b = BreakerConfig.builder()
        .failures(p.getFailures())
        .window(p.getWindow())
        .openFor(p.getOpenFor());
    if (p.getMaxOpenFor() != null) {
      b.maxOpenFor(p.getMaxOpenFor());
    }
    return b.build();
  }

  /**
   * Runs a section's builder, placing a relative key it names under {@code section}. Keys the
   * root builder names are already full ({@code tollgate....}) and stay as they are.
   */
  private static <T> T under(String section, Supplier<T> build) {
    try {
      return build.get();
    } catch (ConfigException e) {
      throw e.key().startsWith(ROOT + ".") ? e : e.under(section);
    }
  }
}
