package io.tollgate.samples.api;

import io.tollgate.config.TollgateConfig;
import io.tollgate.limiter.RateLimiter;
import io.tollgate.llm.ProviderApi;
import io.tollgate.servlet.MissingTenant;
import io.tollgate.servlet.TenantResolver;
import io.tollgate.servlet.TollgateFilter;
import java.util.List;
import java.util.Optional;

/** The servlet filter made in code, for a container set up without web.xml. */
public final class FilterExample {

  private FilterExample() {}

  public static List<TollgateFilter> filters(TollgateConfig config, RateLimiter limiter) {
    TollgateFilter own = new TollgateFilter(config);              // its own limiter from tollgate.redis; closed by destroy()
    TollgateFilter shared = new TollgateFilter(config, limiter);  // a limiter the caller owns and closes
    TollgateFilter built = TollgateFilter.builder(config)
        .limiter(limiter)                             // or .gate(gate): the app's own Gate (its limiter, its telemetry)
        .tenantResolver(request -> Optional.ofNullable(request.getParameter("org")))
        .missingTenant(MissingTenant.defaultTenant("guests"))
        .maxBufferedBody(256 * 1024)
        .api(ProviderApi.ANTHROPIC)
        .skip(request -> request.getServletPath().startsWith("/health"))   // passed untouched
        .build();
    return List.of(own, shared, built);
  }

  /** Where a request's tenant is read from. */
  public static List<TenantResolver> resolvers() {
    TenantResolver byHeader = TenantResolver.header("X-Tenant-Id");  // the header's value
    TenantResolver byKey = TenantResolver.apiKey("Authorization");   // a hash of the API key ("Bearer " dropped)
    TenantResolver byUser = TenantResolver.principal();              // the authenticated user's name
    return List.of(byHeader, byKey, byUser);
  }
}
