package io.tollgate.samples.api;

import io.tollgate.config.ProviderConfig;
import io.tollgate.gate.Transport;
import io.tollgate.router.HealthBoard;
import io.tollgate.router.HealthConfig;
import io.tollgate.router.OutboundRequest;
import io.tollgate.router.QuotaSource;
import io.tollgate.router.RequestRewriter;
import io.tollgate.router.RewrittenRequest;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;

/** Health-scored choice of a fallback, and the request rewritten for it. */
public final class RoutingExample {

  private RoutingExample() {}

  public static List<String> rank(Clock clock, Duration latencyToFirstByte, long remaining,
      long limit, ProviderConfig primary) {
    HealthBoard board = HealthBoard.of(List.of("openai", "backup", "azure"), HealthConfig.ofDefaults(), clock);
    board.health("openai").recordSuccess(latencyToFirstByte);     // or recordFailure()
    board.health("openai").recordQuota(QuotaSource.PROVIDER, remaining / (double) limit);
    List<String> order = board.rank(primary.fallbacks());          // best first, the sick left out
    return order;
  }

  public static <R> R sendToFallback(OutboundRequest request, ProviderConfig primaryConfig,
      ProviderConfig fallbackConfig, Transport<R> transport) throws IOException {
    RewrittenRequest r = RequestRewriter.of().rewrite(request, primaryConfig, fallbackConfig);
    return transport.send(r.request());     // method, uri, headers, body
  }
}
