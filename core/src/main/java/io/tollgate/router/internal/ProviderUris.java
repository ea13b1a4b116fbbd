package io.tollgate.router.internal;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.StringJoiner;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The URI arithmetic of a rewrite: paths relative to a base URL, Azure deployments, query parameters. */
final class ProviderUris {

  /** {@code /openai/deployments/{deployment}/{operation}}, relative to an Azure base URL. */
  private static final Pattern AZURE_DEPLOYMENT = Pattern.compile("/openai/deployments/([^/]+)(/.*)?");

  static final String API_VERSION = "api-version";

  private ProviderUris() {}

  /** An Azure path named its deployment and what follows it. */
  record Deployment(String name, String operation) {}

  /**
   * The raw path of {@code request} after {@code base}'s path ({@code ""} or starting with
   * {@code /}); empty when {@code request} is not under {@code base} (scheme, host, port, path).
   */
  static Optional<String> pathUnder(URI request, URI base) {
    if (!request.getScheme().equalsIgnoreCase(base.getScheme())
        || !request.getHost().equalsIgnoreCase(base.getHost())
        || port(request) != port(base)) {
      return Optional.empty();
    }
    String basePath = basePath(base);
    String path = request.getRawPath() == null ? "" : request.getRawPath();
    if (path.equals(basePath)) {
      return Optional.of("");
    }
    return path.startsWith(basePath + "/") ? Optional.of(path.substring(basePath.length())) : Optional.empty();
  }

  static Optional<Deployment> azureDeployment(String relativePath) {
    Matcher m = AZURE_DEPLOYMENT.matcher(relativePath);
    return m.matches()
        ? Optional.of(new Deployment(m.group(1), m.group(2) == null ? "" : m.group(2)))
        : Optional.empty();
  }

  /** {@code relativePath} without the {@code /v1} an OpenAI path starts with. */
  static String withoutV1(String relativePath) {
    return relativePath.equals("/v1") ? "" : relativePath.startsWith("/v1/") ? relativePath.substring(3) : relativePath;
  }

  /** {@code base}'s scheme, authority and path, then {@code relativePath} and {@code rawQuery}. */
  static URI resolve(URI base, String relativePath, String rawQuery) {
    return URI.create(base.getScheme() + "://" + base.getRawAuthority() + basePath(base) + relativePath
        + (rawQuery == null || rawQuery.isEmpty() ? "" : "?" + rawQuery));
  }

  /** The raw query with only the parameters named in {@code names}, in order; null when nothing is left. */
  static String keepOnly(String rawQuery, Set<String> names) {
    if (rawQuery == null) {
      return null;
    }
    StringJoiner kept = new StringJoiner("&");
    for (String parameter : rawQuery.split("&")) {
      if (!parameter.isEmpty() && names.contains(name(parameter))) {
        kept.add(parameter);
      }
    }
    return kept.length() == 0 ? null : kept.toString();
  }

  /** The raw query without parameter {@code name}; null when nothing is left. */
  static String without(String rawQuery, String name) {
    if (rawQuery == null) {
      return null;
    }
    StringJoiner kept = new StringJoiner("&");
    for (String parameter : rawQuery.split("&")) {
      if (!parameter.isEmpty() && !name(parameter).equals(name)) {
        kept.add(parameter);
      }
    }
    return kept.length() == 0 ? null : kept.toString();
  }

  /** The raw query with parameter {@code name}={@code value} added when it has no {@code name}. */
  static String withDefault(String rawQuery, String name, String value) {
    if (rawQuery != null) {
      for (String parameter : rawQuery.split("&")) {
        if (name(parameter).equals(name)) {
          return rawQuery;
        }
      }
    }
    String added = name + "=" + encode(value);
    return rawQuery == null || rawQuery.isEmpty() ? added : rawQuery + "&" + added;
  }

  /** {@code text} as one path segment or query value: everything but RFC 3986's unreserved characters escaped. */
  static String encode(String text) {
    StringBuilder out = new StringBuilder(text.length());
    for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
      char c = (char) (b & 0xff);
      if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
          || c == '-' || c == '.' || c == '_' || c == '~') {
        out.append(c);
      } else {
        out.append('%').append(String.format(Locale.ROOT, "%02X", b & 0xff));
      }
    }
    return out.toString();
  }

  private static String name(String parameter) {
    int eq = parameter.indexOf('=');
    return eq < 0 ? parameter : parameter.substring(0, eq);
  }

  private static String basePath(URI base) {
    String path = base.getRawPath() == null ? "" : base.getRawPath();
    return path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
  }

  private static int port(URI uri) {
    if (uri.getPort() >= 0) {
      return uri.getPort();
    }
    return "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
  }
}
