package io.tollgate.gate;

import io.tollgate.config.ProviderConfig;
import java.net.URI;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Which configured provider a URL belongs to: same scheme, host and port, and a path under the
 * provider's base path (the longest base path wins). Every outbound call of an app passes here, so
 * a miss must be cheap: a host that is no provider's is rejected on one string comparison.
 */
public final class ProviderMatcher {

  private final List<Entry> entries;

  private ProviderMatcher(List<Entry> entries) {
    this.entries = entries;
  }

  public static ProviderMatcher of(Collection<ProviderConfig> providers) {
    List<Entry> entries = new ArrayList<>();
    for (ProviderConfig provider : providers) {
      URI base = provider.baseUrl();
      String path = base.getRawPath() == null ? "" : base.getRawPath();
      entries.add(new Entry(provider, base.getScheme().toLowerCase(Locale.ROOT),
          base.getHost().toLowerCase(Locale.ROOT), effectivePort(base),
          path.endsWith("/") ? path.substring(0, path.length() - 1) : path));
    }
    entries.sort(Comparator.comparingInt((Entry e) -> e.basePath.length()).reversed());
    return new ProviderMatcher(List.copyOf(entries));
  }

  /** The provider {@code url} is addressed to, or empty when Tollgate must leave the call alone. */
  public Optional<ProviderConfig> match(URI url) {
    String host = url.getHost();
    if (host == null) {
      return Optional.empty();
    }
    for (Entry entry : entries) {
      if (entry.host.equalsIgnoreCase(host)
          && entry.scheme.equalsIgnoreCase(url.getScheme())
          && entry.port == effectivePort(url)
          && underBasePath(url.getRawPath(), entry.basePath)) {
        return Optional.of(entry.provider);
      }
    }
    return Optional.empty();
  }

  /** True when some provider lives on {@code host}: the agent's first, cheapest filter. */
  public boolean knowsHost(String host) {
    for (Entry entry : entries) {
      if (entry.host.equalsIgnoreCase(host)) {
        return true;
      }
    }
    return false;
  }

  private static boolean underBasePath(String path, String basePath) {
    if (basePath.isEmpty()) {
      return true;
    }
    String p = path == null ? "" : path;
    return p.startsWith(basePath) && (p.length() == basePath.length() || p.charAt(basePath.length()) == '/');
  }

  private static int effectivePort(URI url) {
    if (url.getPort() >= 0) {
      return url.getPort();
    }
    return "https".equalsIgnoreCase(url.getScheme()) ? 443 : 80;
  }

  private record Entry(ProviderConfig provider, String scheme, String host, int port, String basePath) {}
}
