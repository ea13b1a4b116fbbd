package io.tollgate.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HeadersTest {

  @Test
  void looksUpWithoutRegardToCaseKeepingOrderAndRepeats() {
    Headers headers = Headers.of("Retry-After", "3", "x-a", "1", "X-A", "2");

    assertThat(headers.first("retry-after")).contains("3");
    assertThat(headers.all("x-a")).containsExactly("1", "2");
    assertThat(headers.first("missing")).isEmpty();
    assertThat(headers.names()).containsExactly("retry-after", "x-a");
    assertThat(headers.toMap()).isEqualTo(Map.of("Retry-After", List.of("3"), "x-a", List.of("1", "2")));
    assertThat(headers.size()).isEqualTo(3);
  }

  @Test
  void readsAClientsMultimap() {
    Map<String, List<String>> map = new LinkedHashMap<>();
    map.put("content-type", List.of("application/json"));
    map.put(null, List.of("HTTP/1.1 429")); // HttpURLConnection puts the status line under null

    assertThat(Headers.of(map).fields()).containsExactly(new Headers.Field("content-type", "application/json"));
  }

  @Test
  void namesAndValuesComeInPairs() {
    assertThatThrownBy(() -> Headers.of("a")).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("names and values must come in pairs, got 1");
  }

  @Test
  void printsOnlyTheValuesOfHeadersKnownToHoldNoSecret() {
    Headers headers = Headers.of("Authorization", "Bearer sk-app", "api-key", "az-1",
        "cf-aig-authorization", "Bearer gw-2", "x-my-gateway-key", "gw-3",
        "Content-Type", "application/json", "x-ratelimit-remaining-requests", "42",
        "anthropic-ratelimit-tokens-reset", "2026-12-03T08:00:00Z", "retry-after", "3");

    assertThat(headers.toString()).isEqualTo("[Authorization: ***, api-key: ***, cf-aig-authorization: ***,"
        + " x-my-gateway-key: ***, Content-Type: application/json, x-ratelimit-remaining-requests: 42,"
        + " anthropic-ratelimit-tokens-reset: 2026-12-03T08:00:00Z, retry-after: 3]");
  }
}
