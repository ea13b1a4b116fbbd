package io.tollgate.spring.boot;

import io.tollgate.config.ConfigException;
import io.tollgate.config.Mode;
import io.tollgate.config.TenantsConfig;
import io.tollgate.config.TollgateConfig;
import io.tollgate.gate.Gate;
import io.tollgate.servlet.MissingTenant;
import io.tollgate.servlet.TenantResolver;
import io.tollgate.servlet.TollgateFilter;
import jakarta.servlet.DispatcherType;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.env.Environment;

/**
 * The inbound per-tenant {@link TollgateFilter} (docs/servlet-filter.md), on the gate bean, mapped
 * to {@code tollgate.filter.url-patterns} at {@code tollgate.filter.order}, or, without patterns, to
 * every request but the actuator's ({@link FilterScope}). Registered in servlet web apps when
 * {@code tollgate.tenants} is configured; says once at start-up where it applies.
 */
@AutoConfiguration(after = TollgateAutoConfiguration.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass(name = {"jakarta.servlet.Filter", "io.tollgate.servlet.TollgateFilter"})
@ConditionalOnProperty(name = {"tollgate.enabled", "tollgate.filter.enabled"}, havingValue = "true", matchIfMissing = true)
@Conditional(ConfiguredSection.Tenants.class)
public class TollgateServletFilterAutoConfiguration {

  private static final Log LOG = LogFactory.getLog(TollgateServletFilterAutoConfiguration.class);

  @Bean
  @ConditionalOnMissingBean
  public TollgateFilter tollgateFilter(TollgateConfig config, Gate gate, TollgateProperties properties,
      Environment environment) {
    TollgateProperties.Filter filter = properties.getFilter();
    TollgateFilter.Builder builder = TollgateFilter.builder(config)
        .gate(gate) // the app's one gate: its limiter, its telemetry (the app's OpenTelemetry, Micrometer's registry)
        .api(filter.getApi())
        .missingTenant(filterKey("missing-tenant", () -> MissingTenant.parse(filter.getMissingTenant())));
    FilterScope.of(filter.getUrlPatterns(), environment).skip().ifPresent(builder::skip);
    if (filter.getMaxBufferedBody() != null) { // else tollgate.tokens.max-buffered-body
      long bytes = filter.getMaxBufferedBody().toBytes();
      filterKey("max-buffered-body", () -> builder.maxBufferedBody((int) Math.max(-1, Math.min(bytes, Integer.MAX_VALUE))));
    }
    switch (filter.getTenantFrom()) {
      case "config" -> { }
      case "principal" -> builder.tenantResolver(TenantResolver.principal());
      default -> throw new ConfigException("tollgate.filter.tenant-from",
          "must be config or principal, was " + filter.getTenantFrom());
    }
    return builder.build();
  }

  @Bean
  @ConditionalOnMissingBean(name = "tollgateFilterRegistration")
  public FilterRegistrationBean<TollgateFilter> tollgateFilterRegistration(TollgateFilter filter,
      TollgateProperties properties, TollgateConfig config, Environment environment) {
    FilterScope scope = FilterScope.of(properties.getFilter().getUrlPatterns(), environment);
    FilterRegistrationBean<TollgateFilter> registration = new FilterRegistrationBean<>(filter);
    registration.setName("tollgate");
    registration.setOrder(properties.getFilter().getOrder());
    registration.setUrlPatterns(scope.urlPatterns());
    registration.setAsyncSupported(true);
    // ASYNC keeps the tenant bound after AsyncContext.dispatch; such a request is not charged again.
    // No ERROR: the error page of a request the filter skipped or refused must not need a tenant.
    registration.setDispatcherTypes(DispatcherType.REQUEST, DispatcherType.ASYNC);
    LOG.info(startUpLine(scope, config, properties.getFilter()));
    return registration;
  }

  /** {@code Tollgate filter: <where>; tenant from <source> (missing: <policy>)}. */
  static String startUpLine(FilterScope scope, TollgateConfig config, TollgateProperties.Filter filter) {
    if (config.mode() == Mode.OFF) {
      return "Tollgate filter: mode off, every request passes untouched";
    }
    String tenant = "principal".equals(filter.getTenantFrom()) ? "the authenticated user"
        : config.tenants().map(TollgateServletFilterAutoConfiguration::tenantSource).orElse("nowhere");
    String mode = switch (config.mode()) {
      case SHADOW -> " (shadow mode, refuses nothing)";
      case ADVISORY -> " (advisory mode, refuses nothing, tells the clients)";
      case CANARY -> " (canary: " + config.canaryPercent() + " % of the tenants enforced)";
      default -> "";
    };
    return "Tollgate filter" + mode + ": "
        + scope.describe() + "; tenant from " + tenant + " (missing: " + filter.getMissingTenant() + ")";
  }

  private static String tenantSource(TenantsConfig tenants) {
    return tenants.header().map(header -> "header " + header)
        .orElseGet(() -> "a hash of the API key in header " + tenants.apiKeyHeader().orElseThrow());
  }

  /** The filter's builder names its settings as init-params; here they are properties. */
  private static <T> T filterKey(String key, java.util.function.Supplier<T> parse) {
    try {
      return parse.get();
    } catch (ConfigException e) {
      throw e;
    } catch (IllegalArgumentException e) {
      throw new ConfigException("tollgate.filter." + key, problem(e.getMessage(), key), e);
    }
  }

  private static String problem(String message, String key) {
    String text = message == null ? "is invalid" : message;
    return text.startsWith(key + " ") ? text.substring(key.length() + 1) : text;
  }
}
