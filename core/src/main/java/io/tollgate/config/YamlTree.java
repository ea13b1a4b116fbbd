package io.tollgate.config;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/**
 * Reads YAML into a {@link ConfigNode} tree, keeping every scalar as the text written: {@code off}
 * stays {@code off} (YAML 1.1 would make it false) and {@code 1.0} stays {@code 1.0}.
 */
final class YamlTree {

  // Not YAMLFactory.builder(): its parsers read `key:` with nothing after it as "" rather than null.
  private static final YAMLFactory FACTORY = new YAMLFactory();

  private YamlTree() {}

  /**
   * @param source names the text in messages: a file path, {@code classpath:...}
   * @throws ConfigException on invalid YAML, a duplicate key, or a root that is not a mapping
   */
  static ConfigNode.Mapping parse(String yaml, String source) {
    try (JsonParser parser = FACTORY.createParser(yaml)) {
      JsonToken first = parser.nextToken();
      if (first == null) {
        return new ConfigNode.Mapping(Map.of(), false);
      }
      if (first != JsonToken.START_OBJECT) {
        throw new ConfigException(source, "must be a YAML mapping with the root key "
            + TollgateConfig.ROOT + ":");
      }
      ConfigNode.Mapping root = mapping(parser, "");
      if (parser.nextToken() != null) {
        throw new ConfigException(source, "holds more than one YAML document; keep the configuration in one");
      }
      return root;
    } catch (JsonProcessingException e) {
      throw new ConfigException(source, "is not valid YAML " + where(e), e);
    } catch (IOException e) {
      throw new ConfigException(source, "cannot be read: " + e.getMessage(), e);
    }
  }

  /**
   * Line, column and problem, and nothing else: the parser's own message quotes the offending line,
   * which may hold an API key.
   */
  private static String where(JsonProcessingException e) {
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof MarkedYAMLException marked && marked.getProblemMark() != null) {
        Mark mark = marked.getProblemMark();
        return "at line " + (mark.getLine() + 1) + ", column " + (mark.getColumn() + 1)
            + (marked.getProblem() == null ? "" : ": " + marked.getProblem());
      }
    }
    return e.getLocation() == null ? "" : "at line " + e.getLocation().getLineNr()
        + ", column " + e.getLocation().getColumnNr();
  }

  private static ConfigNode node(JsonParser parser, String path) throws IOException {
    return switch (parser.currentToken()) {
      case START_OBJECT -> mapping(parser, path);
      case START_ARRAY -> sequence(parser, path);
      case VALUE_NULL -> new ConfigNode.Scalar(null);
      default -> new ConfigNode.Scalar(parser.getText());
    };
  }

  private static ConfigNode.Mapping mapping(JsonParser parser, String path) throws IOException {
    Map<String, ConfigNode> entries = new LinkedHashMap<>();
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      String name = parser.currentName();
      String key = path.isEmpty() ? name : path + "." + name;
      parser.nextToken();
      // A key written twice would otherwise silently keep the last value.
      if (entries.put(name, node(parser, key)) != null) {
        throw new ConfigException(key, "is set twice");
      }
    }
    return new ConfigNode.Mapping(entries, false);
  }

  private static ConfigNode.Sequence sequence(JsonParser parser, String path) throws IOException {
    List<ConfigNode> items = new ArrayList<>();
    while (parser.nextToken() != JsonToken.END_ARRAY) {
      items.add(node(parser, path + "[" + items.size() + "]"));
    }
    return new ConfigNode.Sequence(items);
  }
}
