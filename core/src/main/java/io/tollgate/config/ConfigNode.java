package io.tollgate.config;

import java.util.List;
import java.util.Map;

/**
 * The configuration as read, before binding: YAML and flat properties both become this tree, so
 * that one binder checks and converts both the same way. Every scalar stays text until bound.
 */
sealed interface ConfigNode {

  /** How messages name this kind of node. */
  String kind();

  /** A value, as written; {@code null} text is YAML's null ({@code key:} with nothing after it). */
  record Scalar(String text) implements ConfigNode {
    @Override
    public String kind() {
      return "single value";
    }
  }

  /**
   * Keys and their nodes, in the order written.
   *
   * @param dotted true when built from property names, where {@code model-map.gpt-3.5-turbo} splits
   *     a model name at its dots; such a mapping may be joined back into one key
   */
  record Mapping(Map<String, ConfigNode> entries, boolean dotted) implements ConfigNode {
    @Override
    public String kind() {
      return "section";
    }
  }

  /** A YAML list. */
  record Sequence(List<ConfigNode> items) implements ConfigNode {
    @Override
    public String kind() {
      return "list";
    }
  }
}
