package io.tollgate.agent.it.app;

import java.util.ArrayList;
import java.util.List;

/**
 * The headers an app sends with every call: {@code Authorization: Bearer $APP_KEY} (default
 * {@code app-key}; none when {@code APP_KEY} is {@code -}), then each {@code name: value} of
 * {@code APP_HEADERS}, separated by {@code |}.
 */
public final class AppHeaders {

  private AppHeaders() {}

  /** Each header as {name, value}, in order. */
  public static List<String[]> all() {
    List<String[]> headers = new ArrayList<>();
    String key = System.getenv().getOrDefault("APP_KEY", "app-key");
    if (!key.equals("-")) {
      headers.add(new String[] {"Authorization", "Bearer " + key});
    }
    String more = System.getenv("APP_HEADERS");
    if (more != null && !more.isBlank()) {
      for (String header : more.split("\\|")) {
        int colon = header.indexOf(':');
        headers.add(new String[] {header.substring(0, colon).strip(), header.substring(colon + 1).strip()});
      }
    }
    return headers;
  }
}
