package io.tollgate.config;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.events.AliasEvent;
import org.yaml.snakeyaml.events.Event;
import org.yaml.snakeyaml.events.NodeEvent;
import org.yaml.snakeyaml.events.ScalarEvent;
import org.yaml.snakeyaml.parser.Parser;
import org.yaml.snakeyaml.parser.ParserImpl;
import org.yaml.snakeyaml.reader.ReaderException;
import org.yaml.snakeyaml.reader.StreamReader;

/**
 * Reads YAML into a {@link ConfigNode} tree, keeping every scalar as the text written: {@code off}
 * stays {@code off} (YAML 1.1 would make it false) and {@code 1.0} stays {@code 1.0}. A plain
 * {@code ~}, {@code null} (any of its three cases), nothing at all ({@code key:}) or a value
 * tagged {@code !!null} is YAML's null. An alias stands for the node its anchor names, so that one
 * set of limits can serve several providers.
 *
 * <p>Straight from SnakeYAML's event parser: the tree needs no more, and a JVM starting with the
 * agent reads its YAML faster without a data-binding layer on top of it (docs/benchmarks.md,
 * "Configuration read").
 */
final class YamlTree {

  private static final Set<String> NULLS = Set.of("", "~", "null", "Null", "NULL");
  private static final String NULL_TAG = "tag:yaml.org,2002:null";

  private final Parser parser;
  private final Map<String, ConfigNode> anchors = new HashMap<>();

  private YamlTree(String yaml) {
    this.parser = new ParserImpl(new StreamReader(yaml), new LoaderOptions());
  }

  /**
   * @param source names the text in messages: a file path, {@code classpath:...}
   * @throws ConfigException on invalid YAML, a duplicate key, or a root that is not a mapping
   */
  static ConfigNode.Mapping parse(String yaml, String source) {
    try {
      return new YamlTree(yaml).document(source);
    } catch (YAMLException e) {
      throw new ConfigException(source, "is not valid YAML " + where(e), e);
    }
  }

  private ConfigNode.Mapping document(String source) {
    parser.getEvent(); // the stream's start
    if (parser.checkEvent(Event.ID.StreamEnd)) {
      return new ConfigNode.Mapping(Map.of(), false); // empty, or comments only
    }
    parser.getEvent(); // the document's start
    if (!parser.checkEvent(Event.ID.MappingStart)) {
      throw new ConfigException(source, "must be a YAML mapping with the root key "
          + TollgateConfig.ROOT + ":");
    }
    ConfigNode.Mapping root = (ConfigNode.Mapping) node("");
    parser.getEvent(); // the document's end
    if (!parser.checkEvent(Event.ID.StreamEnd)) {
      throw new ConfigException(source, "holds more than one YAML document; keep the configuration in one");
    }
    return root;
  }

  /**
   * Line, column and problem, and nothing else: the parser's own message quotes the offending line,
   * which may hold an API key.
   */
  private static String where(YAMLException e) {
    if (e instanceof MarkedYAMLException marked && marked.getProblemMark() != null) {
      Mark mark = marked.getProblemMark();
      return "at line " + (mark.getLine() + 1) + ", column " + (mark.getColumn() + 1)
          + (marked.getProblem() == null ? "" : ": " + marked.getProblem());
    }
    if (e instanceof ReaderException unreadable) {
      return "at character " + (unreadable.getPosition() + 1) + ": " + unreadable.getMessage();
    }
    return "(" + e.getClass().getSimpleName() + ")";
  }

  /** The node whose first event comes next, anchored if it names an anchor. */
  private ConfigNode node(String path) {
    Event event = parser.getEvent();
    if (event instanceof AliasEvent alias) {
      ConfigNode anchored = anchors.get(alias.getAnchor());
      if (anchored == null) {
        throw new ConfigException(path, "refers to the anchor &" + alias.getAnchor()
            + ", which no earlier value sets");
      }
      return anchored;
    }
    ConfigNode node = switch (event.getEventId()) {
      case MappingStart -> mapping(path);
      case SequenceStart -> sequence(path);
      default -> scalar((ScalarEvent) event);
    };
    String anchor = ((NodeEvent) event).getAnchor();
    if (anchor != null) {
      anchors.put(anchor, node);
    }
    return node;
  }

  private static ConfigNode.Scalar scalar(ScalarEvent scalar) {
    boolean plain = scalar.getScalarStyle() == DumperOptions.ScalarStyle.PLAIN;
    boolean isNull = NULL_TAG.equals(scalar.getTag())
        || plain && scalar.getTag() == null && NULLS.contains(scalar.getValue());
    return new ConfigNode.Scalar(isNull ? null : scalar.getValue());
  }

  private ConfigNode.Mapping mapping(String path) {
    Map<String, ConfigNode> entries = new LinkedHashMap<>();
    while (!parser.checkEvent(Event.ID.MappingEnd)) {
      Event keyEvent = parser.getEvent();
      if (!(keyEvent instanceof ScalarEvent key)) {
        throw new ConfigException(path.isEmpty() ? "the root" : path,
            "has a key that is not a single value, at line " + (keyEvent.getStartMark().getLine() + 1));
      }
      String name = key.getValue();
      String keyPath = path.isEmpty() ? name : path + "." + name;
      // A key written twice would otherwise silently keep the last value.
      if (entries.put(name, node(keyPath)) != null) {
        throw new ConfigException(keyPath, "is set twice");
      }
    }
    parser.getEvent();
    return new ConfigNode.Mapping(entries, false);
  }

  private ConfigNode.Sequence sequence(String path) {
    List<ConfigNode> items = new ArrayList<>();
    while (!parser.checkEvent(Event.ID.SequenceEnd)) {
      items.add(node(path + "[" + items.size() + "]"));
    }
    parser.getEvent();
    return new ConfigNode.Sequence(items);
  }
}
