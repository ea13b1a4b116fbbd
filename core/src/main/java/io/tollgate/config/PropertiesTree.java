package io.tollgate.config;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads flat properties ({@code tollgate.redis.url=...}) into the same {@link ConfigNode} tree YAML
 * gives. A name splits at dots; {@code [..]} holds a list index ({@code fallbacks[0]}) or a map key
 * that has dots of its own ({@code overrides[acme.com]}, {@code model-map[gpt-3.5-turbo]}).
 */
final class PropertiesTree {

  private PropertiesTree() {}

  /** @throws ConfigException on a malformed name, or one name both a value and a section */
  static ConfigNode.Mapping parse(Map<String, String> properties) {
    ConfigNode.Mapping root = new ConfigNode.Mapping(new LinkedHashMap<>(), true);
    properties.forEach((name, value) -> {
      if (value != null) {
        put(root, segments(name.strip()), value);
      }
    });
    return root;
  }

  private static void put(ConfigNode.Mapping root, List<String> segments, String value) {
    ConfigNode.Mapping mapping = root;
    StringBuilder path = new StringBuilder();
    for (int i = 0; i < segments.size(); i++) {
      String segment = segments.get(i);
      path.append(path.length() == 0 ? "" : ".").append(segment);
      ConfigNode existing = mapping.entries().get(segment);
      if (i == segments.size() - 1) {
        if (existing != null) {
          throw new ConfigException(path.toString(), existing instanceof ConfigNode.Mapping
              ? "is both a value and a section" : "is set twice");
        }
        mapping.entries().put(segment, new ConfigNode.Scalar(value));
      } else if (existing == null) {
        ConfigNode.Mapping child = new ConfigNode.Mapping(new LinkedHashMap<>(), true);
        mapping.entries().put(segment, child);
        mapping = child;
      } else if (existing instanceof ConfigNode.Mapping child) {
        mapping = child;
      } else {
        throw new ConfigException(path.toString(), "is both a value and a section");
      }
    }
  }

  /** {@code a.b[c.d].e[0]} → {@code a, b, c.d, e, 0}. */
  static List<String> segments(String name) {
    List<String> segments = new ArrayList<>();
    int i = 0;
    while (i < name.length()) {
      int end;
      if (name.charAt(i) == '[') {
        end = name.indexOf(']', i);
        if (end < 0) {
          throw invalid(name);
        }
        segments.add(name.substring(i + 1, end));
        end++;
      } else {
        end = i;
        while (end < name.length() && name.charAt(end) != '.' && name.charAt(end) != '[') {
          end++;
        }
        segments.add(name.substring(i, end));
      }
      if (end < name.length() && name.charAt(end) == '.') {
        end++;
        if (end == name.length()) {
          throw invalid(name);
        }
      } else if (end < name.length() && name.charAt(end) != '[') {
        throw invalid(name); // "a[b]c"
      }
      i = end;
    }
    if (segments.isEmpty() || segments.stream().anyMatch(String::isEmpty)) {
      throw invalid(name);
    }
    return segments;
  }

  private static ConfigException invalid(String name) {
    return new ConfigException(ConfigException.shown(name),
        "is not a property name: write dot-separated keys, [n] for list items, [key] for keys with dots");
  }
}
