package io.tollgate.spring.boot.client;

import io.tollgate.llm.Headers;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.springframework.http.HttpHeaders;

/**
 * Between Spring's {@link HttpHeaders} and the core's {@link Headers}. Only methods whose bytecode
 * is the same in Spring Framework 6.2 and 7.0 are used ({@code headerSet}, {@code add}): 7.0's
 * {@code HttpHeaders} is no longer a {@code MultiValueMap}, and its {@code get}/{@code remove} take
 * other parameter types.
 */
final class SpringHeaders {

  /**
   * Headers the HTTP client sets from the request it sends: a fallback's body may differ in length
   * (its model renamed) and its host differs, so they are never copied onto a planned request.
   */
  private static final Set<String> SET_BY_CLIENT = Set.of("content-length", "host", "transfer-encoding");

  private SpringHeaders() {}

  static Headers toCore(HttpHeaders headers) {
    Headers.Builder builder = Headers.builder();
    for (Map.Entry<String, List<String>> entry : headers.headerSet()) {
      for (String value : entry.getValue()) {
        if (value != null) {
          builder.add(entry.getKey(), value);
        }
      }
    }
    return builder.build();
  }

  /** The planned request's headers, without those the client computes itself. */
  static HttpHeaders toSpring(Headers headers) {
    HttpHeaders spring = new HttpHeaders();
    for (Headers.Field field : headers.fields()) {
      if (!SET_BY_CLIENT.contains(field.name().toLowerCase(Locale.ROOT))) {
        spring.add(field.name(), field.value());
      }
    }
    return spring;
  }

  /** A response's headers as Tollgate made them (synthetic answers). */
  static void copyInto(Headers headers, HttpHeaders target) {
    for (Headers.Field field : headers.fields()) {
      target.add(field.name(), field.value());
    }
  }

  /** The reason phrase of the statuses Tollgate answers with itself. */
  static String reason(int status) {
    return switch (status) {
      case 429 -> "Too Many Requests";
      case 503 -> "Service Unavailable";
      case 529 -> "Overloaded";
      default -> "";
    };
  }
}
