package io.tollgate.overrides;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The JSON of an override and of an audit entry, as {@code lua/overrides.lua} keeps them: flat
 * objects whose {@code limits}, {@code before} and {@code after} are objects of texts. jackson-core
 * alone: the agent's jar carries no databind.
 */
final class OverrideJson {

  private static final JsonFactory JSON = new JsonFactory();

  private OverrideJson() {}

  /** An override to store: its label, limits and author; the script adds the time. */
  static byte[] entry(String label, Map<String, String> limits, String by) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (JsonGenerator g = JSON.createGenerator(out)) {
      g.writeStartObject();
      g.writeStringField("label", label);
      g.writeObjectFieldStart("limits");
      for (Map.Entry<String, String> limit : limits.entrySet()) {
        g.writeStringField(limit.getKey(), limit.getValue());
      }
      g.writeEndObject();
      g.writeStringField("by", by);
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  static OverrideEntry readEntry(String field, byte[] json) {
    Map<String, Object> fields = read(json);
    return new OverrideEntry(field, text(fields, "label"), texts(fields, "limits"),
        text(fields, "by"), instant(fields));
  }

  static OverrideChange readChange(byte[] json) {
    Map<String, Object> fields = read(json);
    return new OverrideChange(number(fields, "version"), text(fields, "action"),
        text(fields, "target"), text(fields, "label"), text(fields, "by"), instant(fields),
        texts(fields, "before"), texts(fields, "after"));
  }

  /** A flat object: texts and numbers as they are, nested objects as maps of texts. */
  private static Map<String, Object> read(byte[] json) {
    Map<String, Object> fields = new LinkedHashMap<>();
    try (JsonParser parser = JSON.createParser(json)) {
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        throw new IllegalArgumentException("an override must be a JSON object");
      }
      while (parser.nextToken() == JsonToken.FIELD_NAME) {
        String name = parser.currentName();
        JsonToken value = parser.nextToken();
        if (value == JsonToken.START_OBJECT) {
          Map<String, String> texts = new LinkedHashMap<>();
          while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String key = parser.currentName();
            parser.nextToken();
            texts.put(key, parser.getText());
          }
          fields.put(name, texts);
        } else if (value.isNumeric()) {
          fields.put(name, parser.getLongValue());
        } else if (value == JsonToken.START_ARRAY) {
          parser.skipChildren(); // an empty Lua table comes back as an array
        } else {
          fields.put(name, parser.getText());
        }
      }
    } catch (IOException e) {
      throw new IllegalArgumentException("an override is not readable JSON: " + e.getMessage(), e);
    }
    return fields;
  }

  private static String text(Map<String, Object> fields, String name) {
    Object value = fields.get(name);
    return value == null ? "" : value.toString();
  }

  private static long number(Map<String, Object> fields, String name) {
    return fields.get(name) instanceof Long number ? number : 0;
  }

  private static Instant instant(Map<String, Object> fields) {
    return Instant.ofEpochMilli(number(fields, "at"));
  }

  @SuppressWarnings("unchecked")
  private static Map<String, String> texts(Map<String, Object> fields, String name) {
    return fields.get(name) instanceof Map<?, ?> map ? (Map<String, String>) map : Map.of();
  }
}
