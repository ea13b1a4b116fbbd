package io.tollgate.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Set;

/** Parsing of the URLs the configuration holds, with the password of {@code user:password@} kept out of every message. */
final class Urls {

  private Urls() {}

  /**
   * An absolute URL whose scheme is one of {@code schemes}, with a host.
   *
   * @param expected how the message describes what is wanted, e.g. {@code an absolute http or https URL}
   */
  static URI parse(String key, String text, Set<String> schemes, String expected) {
    URI uri;
    try {
      uri = new URI(text);
    } catch (URISyntaxException e) {
      throw new ConfigException(key, "must be " + expected + ", was " + ConfigException.shown(redacted(text)));
    }
    String scheme = uri.getScheme() == null ? null : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!uri.isAbsolute() || !schemes.contains(scheme) || uri.getHost() == null) {
      throw new ConfigException(key, "must be " + expected + ", was " + ConfigException.shown(redacted(text)));
    }
    return uri;
  }

  /**
   * {@code url} with any {@code user:password@} replaced by {@code ***@}. Everything from {@code //}
   * to the last {@code @} goes: a password written without percent-escapes may itself hold
   * {@code /} or {@code @}, and then the URL does not parse, but its message must still not show it.
   */
  static String redacted(String url) {
    int start = url.indexOf("//");
    int at = url.lastIndexOf('@');
    if (start < 0 || at < start) {
      return url;
    }
    return url.substring(0, start + 2) + Secret.MASK + url.substring(at);
  }

  static String redacted(URI url) {
    return redacted(url.toString());
  }
}
