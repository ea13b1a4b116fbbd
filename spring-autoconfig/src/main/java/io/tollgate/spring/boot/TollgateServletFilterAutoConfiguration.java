package io.tollgate.spring.boot;

import io.opentelemetry.api.OpenTelemetry;
import io.tollgate.config.ConfigException;
import io.tollgate.config.TollgateConfig;
import io.tollgate.limiter.RateLimiter;
import io.tollgate.servlet.MissingTenant;
import io.tollgate.servlet.TenantResolver;
import io.tollgate.servlet.TollgateFilter;
import jakarta.servlet.DispatcherType;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;

/**
 * The inbound per-tenant {@link TollgateFilter} (docs/servlet-filter.md), on the limiter bean, mapped
 * to {@code tollgate.filter.url-patterns} at {@code tollgate.filter.order}. Registered in servlet
 * web apps when {@code tollgate.tenants} is configured.
 */
@AutoConfiguration(after = TollgateAutoConfiguration.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass(name = {"jakarta.servlet.Filter", "io.tollgate.servlet.TollgateFilter"})
@ConditionalOnProperty(name = {"tollgate.enabled", "tollgate.filter.enabled"}, havingValue = "true", matchIfMissing = true)
@Conditional(ConfiguredSection.Tenants.class)
public class TollgateServletFilterAutoConfiguration {

  @Bean
  @ConditionalOnMissingBean
  public TollgateFilter tollgateFilter(TollgateConfig config, RateLimiter limiter, TollgateProperties properties,
      ObjectProvider<OpenTelemetry> openTelemetry) {
    TollgateProperties.Filter filter = properties.getFilter();
    TollgateFilter.Builder builder = TollgateFilter.builder(config)
        .limiter(limiter)
        .api(filter.getApi())
        .missingTenant(filterKey("missing-tenant", () -> MissingTenant.parse(filter.getMissingTenant())));
    OpenTelemetry app = openTelemetry.getIfUnique();
    if (app != null) {
      builder.openTelemetry(app); // else GlobalOpenTelemetry, from the moment the app sets it
    }
    filterKey("max-buffered-body", () -> builder.maxBufferedBody(filter.getMaxBufferedBody()));
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
      TollgateProperties properties) {
    FilterRegistrationBean<TollgateFilter> registration = new FilterRegistrationBean<>(filter);
    registration.setName("tollgate");
    registration.setOrder(properties.getFilter().getOrder());
    registration.setUrlPatterns(properties.getFilter().getUrlPatterns());
    registration.setAsyncSupported(true);
    // ASYNC keeps the tenant bound after AsyncContext.dispatch; such a request is not charged again.
    registration.setDispatcherTypes(DispatcherType.REQUEST, DispatcherType.ASYNC);
    return registration;
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
