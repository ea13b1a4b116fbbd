package io.tollgate.demo;

import io.tollgate.llm.Prices;
import io.tollgate.llm.Usage;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * One line the app printed for one call ({@code call id=okhttp-1-4 client=okhttp stream=true
 * status=200 model=gpt-4o prompt=14 completion=20 ms=231}), and when the driver read it.
 *
 * @param atMillis milliseconds since the app started, when the line arrived
 * @param promptTokens -1 when the response reported none
 */
record CallOutcome(String id, String client, boolean stream, int status, String model, long promptTokens,
    long completionTokens, long millis, String error, long atMillis) {

  /** The outcome in {@code line}, or empty for any other line. */
  static Optional<CallOutcome> parse(String line, long atMillis) {
    if (!line.startsWith("call ")) {
      return Optional.empty();
    }
    Map<String, String> fields = new HashMap<>();
    for (String pair : line.substring(5).split(" ")) {
      int equals = pair.indexOf('=');
      if (equals > 0) {
        fields.put(pair.substring(0, equals), pair.substring(equals + 1));
      }
    }
    try {
      return Optional.of(new CallOutcome(fields.get("id"), fields.get("client"),
          Boolean.parseBoolean(fields.get("stream")), Integer.parseInt(fields.get("status")),
          fields.getOrDefault("model", "-"), number(fields.get("prompt")), number(fields.get("completion")),
          number(fields.get("ms")), fields.get("error"), atMillis));
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }

  /** Prompt plus completion tokens the response reported; 0 when it reported none. */
  long usedTokens() {
    return Math.max(0, promptTokens) + Math.max(0, completionTokens);
  }

  /** What the call's usage costs at the bundled prices, in micro-dollars; 0 for a model with none. */
  long costMicroUsd() {
    Usage usage = Usage.reported(Math.max(0, promptTokens), Math.max(0, completionTokens), 0, 0,
        Optional.ofNullable(model));
    return model == null ? 0
        : Prices.bundled().of(model).map(price -> Prices.microUsd(price, usage)).orElse(0L);
  }

  private static long number(String text) {
    return text == null || text.equals("-") ? -1 : Long.parseLong(text);
  }
}
