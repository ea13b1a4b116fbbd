package io.tollgate.config;

import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * {@code ${NAME}} and {@code ${NAME:default}} in values, replaced from the environment. The
 * replacement is not scanned again, so a secret containing <code>${</code> is taken as it is.
 * Messages name the key and the variable, never a value: it may be a secret.
 */
final class Placeholders {

  private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  private Placeholders() {}

  static String resolve(String key, String text, Function<String, String> environment) {
    int start = text.indexOf("${");
    if (start < 0) {
      return text;
    }
    StringBuilder resolved = new StringBuilder(text.length());
    int from = 0;
    while (start >= 0) {
      int end = text.indexOf('}', start);
      if (end < 0) {
        throw new ConfigException(key, "has a ${ without its closing }");
      }
      String body = text.substring(start + 2, end);
      if (body.contains("${")) {
        throw new ConfigException(key, "has a ${...} inside another; only ${NAME} and ${NAME:default} are supported");
      }
      int colon = body.indexOf(':');
      String name = colon < 0 ? body : body.substring(0, colon);
      if (!NAME.matcher(name).matches()) {
        throw new ConfigException(key, "has a ${...} whose name is not an environment variable name"
            + " (letters, digits and _)");
      }
      String value = environment.apply(name);
      if (value == null) {
        if (colon < 0) {
          throw new ConfigException(key, "needs the environment variable " + name
              + ", which is not set (write ${" + name + ":default} to give a default)");
        }
        value = body.substring(colon + 1);
      }
      resolved.append(text, from, start).append(value);
      from = end + 1;
      start = text.indexOf("${", from);
    }
    return resolved.append(text, from, text.length()).toString();
  }
}
