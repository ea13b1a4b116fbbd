package io.tollgate.config;

import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parsing of the URLs the configuration holds, with the password of {@code user:password@} kept out of every message. */
final class Urls {

  private static final Pattern IPV4 = Pattern.compile("(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})");

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
   * Whether {@code url}'s host is this machine as written: {@code localhost}, an IPv4 literal in
   * 127.0.0.0/8, or {@code [::1]}. Names are not resolved: configuration loading does no DNS, and
   * what a name resolves to may change after it is loaded.
   */
  static boolean isLoopback(URI url) {
    String host = url.getHost().toLowerCase(Locale.ROOT);
    if (host.equals("localhost")) {
      return true;
    }
    if (host.startsWith("[") && host.endsWith("]")) {
      try {
        // a literal (brackets, hex and colons only), so no name is looked up
        return InetAddress.getByName(host).isLoopbackAddress();
      } catch (UnknownHostException e) {
        return false;
      }
    }
    Matcher v4 = IPV4.matcher(host);
    if (!v4.matches() || !v4.group(1).equals("127")) {
      return false;
    }
    for (int i = 2; i <= 4; i++) {
      if (Integer.parseInt(v4.group(i)) > 255) {
        return false;
      }
    }
    return true;
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
