package io.tollgate.config;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * One section of the tree while it is bound: reads keys (an environment override first, then the
 * tree, with {@code ${...}} resolved), converts them with messages naming the full key and the
 * value, and remembers which keys were asked for, so that {@link #finish()} can reject the others.
 * The binder declares each key exactly once, by reading it.
 */
final class Section {

  private final String path;
  private final Map<String, ConfigNode> entries;
  private final boolean dotted;
  private final ConfigEnvironment environment;
  private final Section parent;
  private final Set<String> known = new LinkedHashSet<>();
  private boolean present;
  /** Whether a builder's error is named under this section's path: every section's but the root's. */
  private boolean namesItsKeys;

  private Section(String path, ConfigNode node, ConfigEnvironment environment, Section parent) {
    this.path = path;
    this.environment = environment;
    this.parent = parent;
    if (isNull(node)) {
      this.entries = Map.of();
      this.dotted = false;
    } else if (node instanceof ConfigNode.Mapping mapping) {
      this.entries = mapping.entries();
      this.dotted = mapping.dotted();
    } else {
      throw new ConfigException(path, "must be a section of keys, was a " + node.kind());
    }
  }

  /** The {@code tollgate} section; {@code node} may be null (absent). */
  static Section root(ConfigNode node, ConfigEnvironment environment) {
    return new Section(TollgateConfig.ROOT, node, environment, null);
  }

  /** A section read on its own (an override given at runtime), its keys named under {@code path}. */
  static Section detached(String path, ConfigNode node) {
    Section detached = new Section(path, node, new ConfigEnvironment(Map.of(), false), null);
    detached.namesItsKeys = true;
    return detached;
  }

  String key(String name) {
    return path + "." + name;
  }

  /** True once any key of this section or below has a value. */
  boolean isPresent() {
    return present;
  }

  /** The keys the binder asked for here. */
  Set<String> knownKeys() {
    return known;
  }

  /** The text of scalar {@code name}, when it has one. */
  Optional<String> text(String name) {
    known.add(name);
    String key = key(name);
    Optional<String> override = environment.override(key);
    if (override.isPresent()) {
      markPresent();
      return override; // taken as it is: the environment is where ${...} would have looked
    }
    ConfigNode node = entries.get(name);
    if (isNull(node)) {
      return Optional.empty();
    }
    markPresent();
    return Optional.of(scalar(key, node));
  }

  /** Reads, converts and hands {@code name} to {@code setter}, when it has a value. */
  <T> void bind(String name, Function<String, T> parser, Consumer<? super T> setter) {
    text(name).ifPresent(text -> {
      T value;
      try {
        value = parser.apply(text);
      } catch (ConfigException e) {
        throw e;
      } catch (IllegalArgumentException e) {
        throw new ConfigException(key(name), e.getMessage() + ", was " + ConfigException.shown(text));
      }
      apply(() -> setter.accept(value));
    });
  }

  void bindText(String name, Consumer<String> setter) {
    bind(name, Function.identity(), setter);
  }

  /**
   * Reads list {@code name}: a YAML list, {@code name[0]}, {@code name[1]}... properties, or one
   * comma-separated value (properties, environment).
   */
  void bindList(String name, Consumer<List<String>> setter) {
    known.add(name);
    String key = key(name);
    Optional<String> override = environment.override(key);
    List<String> items;
    if (override.isPresent()) {
      items = split(override.get());
    } else {
      ConfigNode node = entries.get(name);
      if (isNull(node)) {
        return;
      }
      items = list(key, node);
    }
    markPresent();
    apply(() -> setter.accept(items));
  }

  private List<String> list(String key, ConfigNode node) {
    if (node instanceof ConfigNode.Scalar) {
      return split(scalar(key, node));
    }
    List<ConfigNode> nodes;
    if (node instanceof ConfigNode.Sequence sequence) {
      nodes = sequence.items();
    } else {
      nodes = indexed(key, ((ConfigNode.Mapping) node).entries());
    }
    List<String> items = new ArrayList<>(nodes.size());
    for (int i = 0; i < nodes.size(); i++) {
      ConfigNode item = nodes.get(i);
      items.add(isNull(item) ? "" : scalar(key + "[" + i + "]", item));
    }
    return items;
  }

  /** Properties' {@code name[0]}, {@code name[1]}...: indexes from 0, without gaps. */
  private static List<ConfigNode> indexed(String key, Map<String, ConfigNode> entries) {
    TreeMap<Integer, ConfigNode> byIndex = new TreeMap<>();
    entries.forEach((index, item) -> {
      if (!index.matches("\\d{1,9}")) {
        throw new ConfigException(key + "." + index, "is not a list index: write " + key + "[0], [1], ...");
      }
      byIndex.put(Integer.parseInt(index), item);
    });
    List<ConfigNode> items = new ArrayList<>(byIndex.size());
    byIndex.forEach((index, item) -> {
      if (index != items.size()) {
        throw new ConfigException(key + "[" + items.size() + "]", "is missing: list indexes run 0, 1, 2, ... without gaps");
      }
      items.add(item);
    });
    return items;
  }

  private static List<String> split(String text) {
    List<String> items = new ArrayList<>();
    if (!text.isEmpty()) {
      for (String item : text.split(",", -1)) {
        items.add(item.strip());
      }
    }
    return items;
  }

  /** The section {@code name}, empty when absent. */
  Section section(String name) {
    known.add(name);
    return new Section(key(name), entries.get(name), environment, this);
  }

  /** Every entry of this section as a section: a map of named parts (providers, overrides). */
  Map<String, Section> sections() {
    Map<String, Section> sections = new LinkedHashMap<>();
    entries.keySet().forEach(name -> sections.put(name, section(name)));
    return sections;
  }

  /**
   * Every entry of this section as text: a map of names to values (model-map). From properties, a
   * name split at its dots ({@code gpt-3.5-turbo}) is joined back.
   */
  Map<String, String> texts() {
    known.addAll(entries.keySet());
    Map<String, String> texts = new LinkedHashMap<>();
    entries.forEach((name, node) -> collect(name, node, texts));
    return texts;
  }

  private void collect(String name, ConfigNode node, Map<String, String> texts) {
    if (dotted && node instanceof ConfigNode.Mapping mapping) {
      mapping.entries().forEach((rest, child) -> collect(name + "." + rest, child, texts));
      return;
    }
    Optional<String> override = environment.override(key(name));
    texts.put(name, override.orElseGet(() -> isNull(node) ? "" : scalar(key(name), node)));
    markPresent();
  }

  /** Runs a builder call, placing a {@link ConfigException} it throws under this section's key. */
  void apply(Runnable call) {
    build(() -> {
      call.run();
      return null;
    });
  }

  /** As {@link #apply(Runnable)}, returning what {@code call} builds. */
  <T> T build(Supplier<T> call) {
    try {
      return call.get();
    } catch (ConfigException e) {
      // The root builder (TollgateConfig) names full keys already; the others name their own.
      throw parent == null && !namesItsKeys ? e : e.under(path);
    }
  }

  /** Rejects every key in this section that the binder did not ask for, suggesting the closest known one. */
  void finish() {
    for (String name : entries.keySet()) {
      if (!known.contains(name)) {
        throw new ConfigException(key(name), "is not a known key" + Suggestions.closest(name, known)
            .map(s -> "; did you mean " + s + "?")
            .orElse(known.isEmpty() ? "" : "; known keys here: " + String.join(", ", known)));
      }
    }
  }

  private String scalar(String key, ConfigNode node) {
    if (!(node instanceof ConfigNode.Scalar scalar)) {
      throw new ConfigException(key, "must be a single value, was a " + node.kind());
    }
    return Placeholders.resolve(key, scalar.text().strip(), environment::variable);
  }

  private void markPresent() {
    for (Section s = this; s != null && !s.present; s = s.parent) {
      s.present = true;
    }
  }

  private static boolean isNull(ConfigNode node) {
    return node == null || node instanceof ConfigNode.Scalar scalar && scalar.text() == null;
  }
}
