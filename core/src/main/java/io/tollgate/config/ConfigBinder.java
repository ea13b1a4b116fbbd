package io.tollgate.config;

import io.tollgate.llm.Price;
import io.tollgate.llm.ProviderApi;
import io.tollgate.limiter.Algorithm;
import io.tollgate.limiter.Dimension;
import io.tollgate.limiter.FailurePolicy;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Binds a {@link ConfigNode} tree to a {@link TollgateConfig}: the one place that lists the keys
 * of CONFIG.md. Each section reads its keys, hands them to its builder, then rejects any key it did
 * not read. Fails on the first error.
 */
final class ConfigBinder {

  private ConfigBinder() {}

  static TollgateConfig bind(ConfigNode.Mapping root, ConfigEnvironment environment) {
    Section tollgate = Section.root(root.entries().get(TollgateConfig.ROOT), environment);
    TollgateConfig config = tollgate(tollgate);
    rejectOtherRoots(root.entries(), tollgate);
    environment.rejectUnknownOverrides();
    return config;
  }

  /**
   * Only {@code tollgate:} may sit at the root. A Tollgate key found there ({@code redis:} not
   * indented) is named as such: ignoring it would silently run without Redis.
   */
  private static void rejectOtherRoots(Map<String, ConfigNode> roots, Section tollgate) {
    for (String name : roots.keySet()) {
      if (name.equals(TollgateConfig.ROOT)) {
        continue;
      }
      if (tollgate.knownKeys().contains(name)) {
        throw new ConfigException(name, "is not a root key; did you mean " + tollgate.key(name)
            + "? Everything sits under " + TollgateConfig.ROOT + ":");
      }
      throw new ConfigException(name, "is not a known key" + Suggestions.closest(name, List.of(TollgateConfig.ROOT))
          .map(s -> "; did you mean " + s + "?")
          .orElse("; everything sits under " + TollgateConfig.ROOT + ":"));
    }
  }

  private static TollgateConfig tollgate(Section s) {
    TollgateConfig.Builder b = TollgateConfig.builder();
    s.bind("mode", text -> Values.oneOf(Mode.class, text), b::mode);
    s.bind("canary-percent", Values::intNumber, b::canaryPercent);
    s.bind("on-limit", text -> Values.oneOf(OnLimit.class, text), b::onLimit);
    s.bind("max-wait", Durations::parse, b::maxWait);
    s.bind("strict", Values::bool, b::strict);
    s.bindList("credential-headers", b::credentialHeaders);
    b.redis(redis(s.section("redis")));
    Section providers = s.section("providers");
    providers.sections().forEach((name, provider) -> b.provider(provider(providers, name, provider)));
    b.tenants(tenants(s.section("tenants")));
    b.breaker(breaker(s.section("breaker")));
    b.tokens(tokens(s.section("tokens")));
    s.section("prices").sections().forEach((model, entry) -> {
      Price price = price(entry);
      s.apply(() -> b.price(model, price));
    });
    b.telemetry(telemetry(s.section("telemetry")));
    b.status(status(s.section("status")));
    PriorityConfig priority = priority(s.section("priority"));
    if (priority != null) {
      s.apply(() -> b.priority(priority));
    }
    s.finish();
    return s.build(b::build);
  }

  /** Null when the section is absent: in-memory limiting. */
  private static RedisConfig redis(Section s) {
    RedisConfig.Builder b = RedisConfig.builder();
    s.bindText("url", b::url);
    s.bindList("cluster", b::cluster);
    s.bind("timeout", Durations::parse, b::timeout);
    s.bind("on-failure", text -> Values.oneOf(FailurePolicy.class, text), b::onFailure);
    s.bind("local-share", Values::decimal, b::localShare);
    s.bind("pool-size", Values::intNumber, b::poolSize);
    s.bind("reservation-ttl", Durations::parse, b::reservationTtl);
    s.bind("verify-host", Values::bool, b::verifyHost);
    s.finish();
    return s.isPresent() ? s.build(b::build) : null;
  }

  private static ProviderConfig provider(Section providers, String name, Section s) {
    ProviderConfig.Builder b = providers.build(() -> ProviderConfig.builder(name));
    s.bindText("base-url", b::baseUrl);
    s.bind("api", text -> Values.oneOf(ProviderApi.class, text), b::api);
    s.bindText("api-key", b::apiKey);
    s.bind("allow-insecure", Values::bool, b::allowInsecure);
    b.limits(limits(s.section("limits")));
    s.bindList("fallbacks", b::fallbacks);
    Map<String, String> modelMap = s.section("model-map").texts();
    s.apply(() -> b.modelMap(modelMap));
    s.section("models").sections().forEach((model, limits) -> {
      LimitsConfig modelLimits = limits(limits);
      s.apply(() -> b.model(model, modelLimits));
    });
    s.bind("learn-limits", Values::bool, b::learnLimits);
    s.finish();
    return s.build(b::build);
  }

  /** A limits section given as key → text (an override set at runtime), named under {@code path}. */
  static LimitsConfig limits(String path, Map<String, String> texts) {
    Map<String, ConfigNode> entries = new LinkedHashMap<>();
    texts.forEach((key, text) -> entries.put(key, new ConfigNode.Scalar(text)));
    return limits(Section.detached(path, new ConfigNode.Mapping(entries, false)));
  }

  private static LimitsConfig limits(Section s) {
    LimitsConfig.Builder b = LimitsConfig.builder();
    for (LimitKey key : LimitKey.values()) {
      s.bind(key.key, key.dimension == Dimension.SPEND ? Values::usdMicros : Values::wholeNumber,
          capacity -> b.limit(key, capacity));
    }
    s.bind("algorithm", LimitsConfig::parseAlgorithm, b::algorithm);
    s.bind("on-failure", text -> Values.oneOf(FailurePolicy.class, text), b::onFailure);
    LeasesConfig leases = leases(s.section("leases"));
    if (leases != null) {
      s.apply(() -> b.leases(leases));
    }
    s.finish();
    return s.build(b::build);
  }

  /** Null when the section is absent: decisions are not leased. */
  private static LeasesConfig leases(Section s) {
    LeasesConfig.Builder b = LeasesConfig.builder();
    s.bind("size", LeasesConfig::parseSize, b::size);
    s.bind("ttl", Durations::parse, b::ttl);
    s.finish();
    return s.isPresent() ? s.build(b::build) : null;
  }

  /** Null when the section is absent: calls are not charged to tenants. */
  private static TenantsConfig tenants(Section s) {
    TenantsConfig.Builder b = TenantsConfig.builder();
    s.bindText("header", b::header);
    s.bindText("api-key-header", b::apiKeyHeader);
    s.bind("case-insensitive", Values::bool, b::caseInsensitive);
    s.bind("known-only", Values::bool, b::knownOnly);
    s.bind("max-tracked", Values::intNumber, b::maxTracked);
    s.bindText("hash-key", b::hashKey);
    b.limits(limits(s.section("limits")));
    s.section("overrides").sections().forEach((tenant, override) -> {
      LimitsConfig limits = limits(override);
      s.apply(() -> b.override(tenant, limits));
    });
    s.bindText("user-header", b::userHeader);
    b.userLimits(limits(s.section("user-limits")));
    s.finish();
    return s.isPresent() ? s.build(b::build) : null;
  }

  /** One {@code prices:} entry; a bad figure is named by its full key. */
  private static Price price(Section s) {
    Map<String, String> fields = s.texts();
    try {
      return Price.fromFields(fields);
    } catch (IllegalArgumentException e) {
      // Price names the field first: "cached-input may have at most 6 decimals, was ..."
      String message = String.valueOf(e.getMessage());
      int space = message.indexOf(' ');
      throw new ConfigException(s.key(message.substring(0, Math.max(space, 0))),
          message.substring(space + 1), e);
    }
  }

  private static BreakerConfig breaker(Section s) {
    BreakerConfig.Builder b = BreakerConfig.builder();
    s.bind("failures", Values::intNumber, b::failures);
    s.bind("window", Durations::parse, b::window);
    s.bind("open-for", Durations::parse, b::openFor);
    s.bind("max-open-for", Durations::parse, b::maxOpenFor);
    s.finish();
    return s.build(b::build);
  }

  private static TelemetryConfig telemetry(Section s) {
    TelemetryExport[] export = {TelemetryConfig.DEFAULT_EXPORT};
    s.bind("export", text -> Values.oneOf(TelemetryExport.class, text), value -> export[0] = value);
    s.finish();
    return s.build(() -> TelemetryConfig.of(export[0]));
  }

  /** Null when the section is absent: every call may use every limit whole. */
  private static PriorityConfig priority(Section s) {
    PriorityConfig.Builder b = PriorityConfig.builder();
    s.bindText("header", b::header);
    s.bindText("default", b::defaultClass);
    s.section("classes").texts().forEach((name, share) ->
        s.apply(() -> b.priorityClass(name, share("classes." + name, share))));
    s.section("tenants").texts().forEach((tenant, name) -> s.apply(() -> b.tenant(tenant, name)));
    s.finish();
    return s.isPresent() ? s.build(b::build) : null;
  }

  private static double share(String key, String text) {
    try {
      return Values.decimal(text);
    } catch (IllegalArgumentException e) {
      throw new ConfigException(key, e.getMessage() + ", was " + ConfigException.shown(text));
    }
  }

  private static StatusConfig status(Section s) {
    StatusConfig.Builder b = StatusConfig.builder();
    s.bind("port", Values::intNumber, b::port);
    s.bindText("bind", b::bind);
    s.bindText("token", b::token);
    s.bindText("path", b::path);
    s.finish();
    return s.build(b::build);
  }

  private static TokensConfig tokens(Section s) {
    TokensConfig.Builder b = TokensConfig.builder();
    s.bind("default-max-output", Values::intNumber, b::defaultMaxOutput);
    s.bind("max-buffered-body", ByteSizes::parse, b::maxBufferedBody);
    s.finish();
    return s.build(b::build);
  }
}
