package io.tollgate.servlet;

import static io.tollgate.servlet.TollgateFilter.API_PARAM;
import static io.tollgate.servlet.TollgateFilter.CONFIG_PARAM;
import static io.tollgate.servlet.TollgateFilter.MAX_BUFFERED_BODY_PARAM;
import static io.tollgate.servlet.TollgateFilter.MAX_MAX_BUFFERED_BODY;
import static io.tollgate.servlet.TollgateFilter.MISSING_TENANT_PARAM;
import static io.tollgate.servlet.TollgateFilter.TENANT_FROM_PARAM;

import io.tollgate.config.ByteSizes;
import io.tollgate.config.TollgateConfigLoader;
import io.tollgate.llm.ProviderApi;
import jakarta.servlet.FilterConfig;
import java.util.Collections;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * What {@code web.xml} tells a filter the container made: read into the same builder a filter
 * made in code uses. Every problem is an {@link IllegalArgumentException} naming the init-param
 * (or, for the configuration, the key), which {@code init} turns into a {@code ServletException}.
 */
final class InitParams {

  private static final Set<String> KNOWN =
      Set.of(CONFIG_PARAM, MISSING_TENANT_PARAM, TENANT_FROM_PARAM, MAX_BUFFERED_BODY_PARAM, API_PARAM);

  private InitParams() {}

  static TollgateFilter.Builder read(FilterConfig filterConfig) {
    Set<String> unknown = new TreeSet<>(Collections.list(filterConfig.getInitParameterNames()));
    unknown.removeAll(KNOWN);
    if (!unknown.isEmpty()) {
      // A misspelt name (missing_tenant) would otherwise be ignored without a word.
      throw new IllegalArgumentException("init-param " + String.join(", ", unknown)
          + " is not known to " + TollgateFilter.class.getSimpleName() + "; known: " + new TreeSet<>(KNOWN));
    }
    String location = filterConfig.getInitParameter(CONFIG_PARAM);
    if (location == null || location.isBlank()) {
      throw new IllegalArgumentException("init-param " + CONFIG_PARAM
          + " is required: a file path or classpath:tollgate.yaml");
    }
    TollgateConfigLoader.Builder loader = TollgateConfigLoader.builder();
    ClassLoader appLoader = filterConfig.getServletContext().getClassLoader();
    if (appLoader != null) {
      loader.classLoader(appLoader); // classpath: means WEB-INF/classes and WEB-INF/lib
    }
    TollgateFilter.Builder builder = TollgateFilter.builder(loader.build().load(location.trim()));

    String missing = filterConfig.getInitParameter(MISSING_TENANT_PARAM);
    if (missing != null) {
      builder.missingTenant(param(MISSING_TENANT_PARAM, () -> MissingTenant.parse(missing)));
    }
    String from = filterConfig.getInitParameter(TENANT_FROM_PARAM);
    if (from != null) {
      switch (from.trim()) {
        case "config" -> { }
        case "principal" -> builder.tenantResolver(TenantResolver.principal());
        default -> throw new IllegalArgumentException("init-param " + TENANT_FROM_PARAM
            + " must be config or principal, was " + shown(from));
      }
    }
    String max = filterConfig.getInitParameter(MAX_BUFFERED_BODY_PARAM);
    if (max != null) {
      builder.maxBufferedBody(param(MAX_BUFFERED_BODY_PARAM, () -> bytes(max)));
    }
    String api = filterConfig.getInitParameter(API_PARAM);
    if (api != null) {
      builder.api(param(API_PARAM, () -> ProviderApi.fromConfig(api)));
    }
    return builder;
  }

  /** Parses a value, its error message placed after {@code init-param <name>}. */
  private static <T> T param(String name, Supplier<T> parse) {
    try {
      return parse.get();
    } catch (IllegalArgumentException e) {
      String problem = e.getMessage();
      if (problem.startsWith(name + " ")) {
        problem = problem.substring(name.length() + 1);
      }
      throw new IllegalArgumentException("init-param " + name + " " + problem, e);
    }
  }

  private static int bytes(String value) {
    try {
      long parsed = ByteSizes.parse(value);
      if (parsed <= MAX_MAX_BUFFERED_BODY) {
        return (int) parsed;
      }
    } catch (IllegalArgumentException e) {
      // reported below, with the accepted range
    }
    throw new IllegalArgumentException("must be a size from 0 to " + ByteSizes.format(MAX_MAX_BUFFERED_BODY)
        + " (1048576, 512KB, 1MB), was " + shown(value));
  }

  private static String shown(String value) {
    return value.isEmpty() ? "\"\"" : value;
  }
}
