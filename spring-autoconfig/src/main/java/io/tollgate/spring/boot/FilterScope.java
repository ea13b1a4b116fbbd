package io.tollgate.spring.boot;

import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;

/**
 * Where the starter's filter applies: {@code tollgate.filter.url-patterns} exactly as given, else
 * every request of the app ({@code /*}) except the actuator's when it shares the server's port, so
 * that a probe never needs a tenant. Error dispatches are never charged either way: the
 * registration maps {@code REQUEST} and {@code ASYNC} only.
 */
final class FilterScope {

  static final String EVERY_REQUEST = "/*";

  private static final String ACTUATOR =
      "org.springframework.boot.actuate.autoconfigure.web.server.ManagementPortType";

  private final List<String> urlPatterns;
  /** The path the filter skips, everything under it included; null when none. */
  private final String skipped;

  private FilterScope(List<String> urlPatterns, String skipped) {
    this.urlPatterns = urlPatterns;
    this.skipped = skipped;
  }

  static FilterScope of(List<String> configuredPatterns, Environment environment) {
    if (configuredPatterns != null && !configuredPatterns.isEmpty()) {
      return new FilterScope(List.copyOf(configuredPatterns), null);
    }
    String actuator = ClassUtils.isPresent(ACTUATOR, FilterScope.class.getClassLoader())
        ? Actuator.pathOnServerPort(environment) : null;
    return new FilterScope(List.of(EVERY_REQUEST), actuator);
  }

  List<String> urlPatterns() {
    return urlPatterns;
  }

  /** The requests a filter on {@link #urlPatterns()} must pass untouched. */
  Optional<Predicate<HttpServletRequest>> skip() {
    return Optional.ofNullable(skipped).map(Under::new);
  }

  /** {@code every request except /actuator/** and error dispatches}, or the patterns given. */
  String describe() {
    if (skipped == null && !urlPatterns.equals(List.of(EVERY_REQUEST))) {
      return "requests to " + String.join(", ", urlPatterns) + " except error dispatches";
    }
    return "every request except " + (skipped == null ? "" : skipped + "/** and ") + "error dispatches";
  }

  /** Only loaded when the actuator is on the class path. */
  private static final class Actuator {

    /**
     * Where the actuator's endpoints are on the server's own port ({@code spring.mvc.servlet.path}
     * + {@code management.endpoints.web.base-path}); null when they have a port of their own (a
     * child context whose server this filter is not registered with), none, or sit at the root.
     */
    static String pathOnServerPort(Environment environment) {
      if (org.springframework.boot.actuate.autoconfigure.web.server.ManagementPortType.get(environment)
          != org.springframework.boot.actuate.autoconfigure.web.server.ManagementPortType.SAME) {
        return null;
      }
      Binder binder = Binder.get(environment);
      String basePath = binder.bindOrCreate("management.endpoints.web",
          org.springframework.boot.actuate.autoconfigure.endpoint.web.WebEndpointProperties.class).getBasePath();
      if (basePath.isEmpty()) {
        return null; // endpoints at the root: no prefix tells them from the app's
      }
      return withoutTrailingSlash(binder.bind("spring.mvc.servlet.path", String.class).orElse("/")) + basePath;
    }

    private static String withoutTrailingSlash(String path) {
      return path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    }
  }

  /**
   * A request for {@code path} or anything under it. Both the container's decoded, normalized view
   * (servlet path and path info) and the raw request URI must say so: a request whose two views
   * disagree ({@code /chat/../actuator/health}, routed by the raw one) is filtered, not skipped.
   */
  private record Under(String path) implements Predicate<HttpServletRequest> {

    @Override
    public boolean test(HttpServletRequest request) {
      String normalized = request.getServletPath() + Objects.toString(request.getPathInfo(), "");
      String uri = request.getRequestURI();
      String context = request.getContextPath();
      return uri.startsWith(context) && isUnder(normalized) && isUnder(uri.substring(context.length()));
    }

    private boolean isUnder(String candidate) {
      return candidate.startsWith(path)
          && (candidate.length() == path.length() || candidate.charAt(path.length()) == '/');
    }
  }
}
