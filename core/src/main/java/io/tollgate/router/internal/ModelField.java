package io.tollgate.router.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.io.JsonStringEncoder;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The top-level {@code model} of a JSON request body, read and replaced in place: only the bytes of
 * that string change, so every other field keeps its order, numbers their digits, strings their
 * escapes, even the whitespace stays. A body that is not one well-formed JSON object (or not
 * UTF-8) is left alone.
 */
final class ModelField {

  private static final String NAME = "model";

  /** Limits off: a large base64 image in a message must not make the body "not JSON". */
  private static final JsonFactory JSON = JsonFactory.builder()
      .streamReadConstraints(StreamReadConstraints.builder()
          .maxStringLength(Integer.MAX_VALUE)
          .maxNumberLength(Integer.MAX_VALUE)
          .maxNestingDepth(Integer.MAX_VALUE)
          .build())
      .build();

  private final byte[] body;
  private final boolean object;
  private final long objectStart;
  private final boolean emptyObject;
  private final List<long[]> valueSpans;
  private final String model;

  private ModelField(byte[] body, boolean object, long objectStart, boolean emptyObject,
      List<long[]> valueSpans, String model) {
    this.body = body;
    this.object = object;
    this.objectStart = objectStart;
    this.emptyObject = emptyObject;
    this.valueSpans = valueSpans;
    this.model = model;
  }

  static ModelField scan(byte[] body) {
    try (JsonParser parser = JSON.createParser(body)) {
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        return notAnObject(body);
      }
      long start = parser.currentTokenLocation().getByteOffset();
      if (start < 0) {
        return notAnObject(body); // not UTF-8: offsets are in characters, splicing bytes would break it
      }
      List<long[]> spans = new ArrayList<>(1);
      String model = null;
      boolean empty = true;
      while (parser.nextToken() == JsonToken.FIELD_NAME) {
        empty = false;
        String name = parser.currentName();
        JsonToken value = parser.nextToken();
        if (NAME.equals(name) && value == JsonToken.VALUE_STRING) {
          long from = parser.currentTokenLocation().getByteOffset();
          model = parser.getText(); // a repeated key: the last one, as most JSON readers take it
          spans.add(new long[] {from, parser.currentLocation().getByteOffset()});
        } else {
          parser.skipChildren();
        }
      }
      if (parser.currentToken() != JsonToken.END_OBJECT || parser.nextToken() != null) {
        return notAnObject(body);
      }
      return new ModelField(body, true, start, empty, spans, model);
    } catch (IOException | RuntimeException e) {
      return notAnObject(body);
    }
  }

  private static ModelField notAnObject(byte[] body) {
    return new ModelField(body, false, -1, false, List.of(), null);
  }

  /** True when the body is one JSON object, so that its model can be set. */
  boolean isObject() {
    return object;
  }

  /** The body's top-level {@code model} when it is a string. */
  Optional<String> model() {
    return Optional.ofNullable(model);
  }

  /** The body with every top-level {@code model} string set to {@code value}; unchanged when not an object. */
  byte[] withModel(String value) {
    if (!object || valueSpans.isEmpty() || (valueSpans.size() == 1 && value.equals(model))) {
      return body;
    }
    byte[] quoted = quoted(value);
    ByteArrayOutputStream out = new ByteArrayOutputStream(body.length + quoted.length);
    int copied = 0;
    for (long[] span : valueSpans) {
      out.write(body, copied, (int) span[0] - copied);
      out.write(quoted, 0, quoted.length);
      copied = (int) span[1];
    }
    out.write(body, copied, body.length - copied);
    return out.toByteArray();
  }

  /**
   * The body with {@code model} set to {@code value}: replaced where present, else added as the
   * object's first field. Unchanged when the body is not an object.
   */
  byte[] withModelSetTo(String value) {
    if (!object || !valueSpans.isEmpty()) {
      return withModel(value);
    }
    byte[] field = ("\"" + NAME + "\":" + new String(quoted(value), StandardCharsets.UTF_8)
        + (emptyObject ? "" : ",")).getBytes(StandardCharsets.UTF_8);
    int at = (int) objectStart + 1;
    ByteArrayOutputStream out = new ByteArrayOutputStream(body.length + field.length);
    out.write(body, 0, at);
    out.write(field, 0, field.length);
    out.write(body, at, body.length - at);
    return out.toByteArray();
  }

  private static byte[] quoted(String value) {
    byte[] escaped = JsonStringEncoder.getInstance().quoteAsUTF8(value);
    byte[] quoted = new byte[escaped.length + 2];
    quoted[0] = '"';
    System.arraycopy(escaped, 0, quoted, 1, escaped.length);
    quoted[quoted.length - 1] = '"';
    return quoted;
  }
}
