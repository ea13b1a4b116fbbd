package io.tollgate.overrides;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The JSON of an override and of an audit entry, as {@code lua/overrides.lua} keeps them: flat
 * objects whose {@code limits}, {@code before} and {@code after} are objects of texts; and of a
 * change asked for over HTTP ({@link OverrideRequest}). jackson-core alone: the agent's jar carries
 * no databind.
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

  /**
   * An {@link OverrideRequest}'s body: scalars, and {@code limits} an object of scalars or a text
   * of {@code key=value} pairs.
   */
  static OverrideRequest readRequest(byte[] json) {
    Map<String, String> texts = new LinkedHashMap<>();
    Map<String, String> limits = null;
    try (JsonParser parser = JSON.createParser(json)) {
      parser.enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        throw new IllegalArgumentException("the body must be a JSON object");
      }
      while (parser.nextToken() == JsonToken.FIELD_NAME) {
        String name = parser.currentName();
        if (!OverrideRequest.FIELDS.contains(name)) {
          throw new IllegalArgumentException("unknown field " + name + "; known: "
              + String.join(", ", OverrideRequest.FIELDS));
        }
        JsonToken value = parser.nextToken();
        if (name.equals("limits") && value == JsonToken.VALUE_STRING) {
          limits = OverrideRequest.limitsFromText(parser.getText());
        } else if (name.equals("limits") && value != JsonToken.VALUE_NULL) {
          if (value != JsonToken.START_OBJECT) {
            throw new IllegalArgumentException("limits must be an object (limit key → value) or a"
                + " text of key=value pairs");
          }
          limits = new LinkedHashMap<>();
          while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String key = parser.currentName();
            limits.put(key, scalar(parser, parser.nextToken(), "limits." + key));
          }
        } else if (value != JsonToken.VALUE_NULL) {
          texts.put(name, scalar(parser, value, name));
        }
      }
      if (parser.nextToken() != null) {
        throw new IllegalArgumentException("the body holds more than one JSON object");
      }
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("the body is not JSON: " + e.getOriginalMessage(), e);
    } catch (IOException e) {
      throw new UncheckedIOException("reading from memory does not fail", e);
    }
    return new OverrideRequest(texts.get("action"), texts.get("tenant"), texts.get("provider"),
        texts.get("model"), limits, texts.get("by"));
  }

  private static String scalar(JsonParser parser, JsonToken value, String name) throws IOException {
    if (value == null || !value.isScalarValue() || value == JsonToken.VALUE_NULL) {
      throw new IllegalArgumentException(name + " must be a number or a text");
    }
    return parser.getText();
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
