package io.tollgate.status;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Writes the status API's JSON with jackson-core's generator: the agent's jar carries jackson-core
 * only, not databind. A record is an object of its components, in their order, a null one left
 * out; an {@link Instant} is its ISO-8601 text.
 */
final class StatusJson {

  private static final JsonFactory FACTORY = new JsonFactory();

  private StatusJson() {}

  static byte[] write(Object value) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (JsonGenerator generator = FACTORY.createGenerator(out)) {
      write(generator, value);
    } catch (IOException e) {
      throw new UncheckedIOException("writing to memory does not fail", e);
    }
    return out.toByteArray();
  }

  private static void write(JsonGenerator g, Object value) throws IOException {
    if (value == null) {
      g.writeNull();
    } else if (value instanceof String text) {
      g.writeString(text);
    } else if (value instanceof Boolean flag) {
      g.writeBoolean(flag);
    } else if (value instanceof BigDecimal decimal) {
      g.writeNumber(decimal);
    } else if (value instanceof Double || value instanceof Float) {
      g.writeNumber(((Number) value).doubleValue());
    } else if (value instanceof Long || value instanceof Integer) {
      g.writeNumber(((Number) value).longValue());
    } else if (value instanceof Instant instant) {
      g.writeString(instant.toString());
    } else if (value instanceof List<?> list) {
      g.writeStartArray();
      for (Object element : list) {
        write(g, element);
      }
      g.writeEndArray();
    } else if (value instanceof Map<?, ?> map) {
      g.writeStartObject();
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        if (entry.getValue() != null) {
          g.writeFieldName(String.valueOf(entry.getKey()));
          write(g, entry.getValue());
        }
      }
      g.writeEndObject();
    } else if (value instanceof Record record) {
      g.writeStartObject();
      for (RecordComponent component : record.getClass().getRecordComponents()) {
        Object field = read(component, record);
        if (field != null) {
          g.writeFieldName(component.getName());
          write(g, field);
        }
      }
      g.writeEndObject();
    } else {
      throw new IllegalArgumentException("the status API writes no " + value.getClass().getName());
    }
  }

  /** The status report's records are public: their accessors are called as any caller would. */
  private static Object read(RecordComponent component, Record record) {
    try {
      return component.getAccessor().invoke(record);
    } catch (IllegalAccessException | InvocationTargetException e) {
      throw new IllegalStateException("cannot read " + component, e);
    }
  }
}
