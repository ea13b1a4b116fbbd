package io.tollgate.llm;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * HTTP header fields in the order given, looked up without regard to case; a name may repeat.
 * Immutable. Its {@link #toString()} shows the values of headers known to hold no secret and
 * masks every other one (an allow-list: a gateway's key in a header of its own is masked too), so
 * a request or a response can be logged without its keys.
 */
public final class Headers {

  /** Names whose values are shown when printed; lower case. Every other value is masked. */
  static final Set<String> SHOWN_NAMES = Set.of(
      "content-type", "content-length", "content-encoding", "transfer-encoding", "accept",
      "accept-encoding", "user-agent", "host", "connection", "date", "server", "retry-after",
      "retry-after-ms", "openai-beta", "openai-version", "openai-processing-ms", "anthropic-version",
      "anthropic-beta", "x-request-id", "request-id", "traceparent", "tracestate");
  /** Prefixes of names whose values are shown: the providers' rate-limit figures. */
  private static final List<String> SHOWN_PREFIXES = List.of("x-ratelimit-", "anthropic-ratelimit-");

  /** One header field. */
  public record Field(String name, String value) {
    public Field {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(value, "value");
    }

    @Override
    public String toString() {
      return name + ": " + (isShown(name) ? value : "***");
    }
  }

  private static final Headers EMPTY = new Headers(List.of());

  private final List<Field> fields;

  private Headers(List<Field> fields) {
    this.fields = fields;
  }

  public static Headers empty() {
    return EMPTY;
  }

  /** Headers from a multimap such as {@code java.net.http.HttpHeaders.map()} or OkHttp's {@code toMultimap()}. */
  public static Headers of(Map<String, ? extends Collection<String>> map) {
    Builder builder = builder();
    map.forEach((name, values) -> {
      if (name != null && values != null) {
        values.forEach(value -> {
          if (value != null) {
            builder.add(name, value);
          }
        });
      }
    });
    return builder.build();
  }

  /** Headers from alternating names and values: {@code of("retry-after", "3", "x-a", "b")}. */
  public static Headers of(String... namesAndValues) {
    if (namesAndValues.length % 2 != 0) {
      throw new IllegalArgumentException("names and values must come in pairs, got " + namesAndValues.length);
    }
    Builder builder = builder();
    for (int i = 0; i < namesAndValues.length; i += 2) {
      builder.add(namesAndValues[i], namesAndValues[i + 1]);
    }
    return builder.build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The first value of the named field. */
  public Optional<String> first(String name) {
    for (Field field : fields) {
      if (field.name.equalsIgnoreCase(name)) {
        return Optional.of(field.value);
      }
    }
    return Optional.empty();
  }

  /** Every value of the named field, in order. */
  public List<String> all(String name) {
    List<String> values = new ArrayList<>(1);
    for (Field field : fields) {
      if (field.name.equalsIgnoreCase(name)) {
        values.add(field.value);
      }
    }
    return Collections.unmodifiableList(values);
  }

  /** Every field, in order. */
  public List<Field> fields() {
    return fields;
  }

  /** The distinct names, lower-cased, in order of first appearance. */
  public Set<String> names() {
    Set<String> names = new LinkedHashSet<>();
    fields.forEach(field -> names.add(field.name.toLowerCase(Locale.ROOT)));
    return Collections.unmodifiableSet(names);
  }

  /** A multimap keyed by the names as first written, in order; for copying into a response. */
  public Map<String, List<String>> toMap() {
    Map<String, List<String>> map = new LinkedHashMap<>();
    Map<String, String> spelling = new LinkedHashMap<>();
    for (Field field : fields) {
      String key = spelling.computeIfAbsent(field.name.toLowerCase(Locale.ROOT), k -> field.name);
      map.computeIfAbsent(key, k -> new ArrayList<>()).add(field.value);
    }
    map.replaceAll((k, v) -> List.copyOf(v));
    return Collections.unmodifiableMap(map);
  }

  public int size() {
    return fields.size();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Headers other && fields.equals(other.fields);
  }

  @Override
  public int hashCode() {
    return fields.hashCode();
  }

  @Override
  public String toString() {
    return fields.toString();
  }

  static boolean isShown(String name) {
    String lower = name.toLowerCase(Locale.ROOT);
    return SHOWN_NAMES.contains(lower) || SHOWN_PREFIXES.stream().anyMatch(lower::startsWith);
  }

  /** Collects fields in order. */
  public static final class Builder {
    private final List<Field> fields = new ArrayList<>();

    private Builder() {}

    public Builder add(String name, String value) {
      fields.add(new Field(name, value));
      return this;
    }

    public Headers build() {
      return fields.isEmpty() ? EMPTY : new Headers(List.copyOf(fields));
    }
  }
}
