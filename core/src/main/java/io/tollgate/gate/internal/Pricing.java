package io.tollgate.gate.internal;

import io.tollgate.config.LimitsConfig;
import io.tollgate.config.ProviderConfig;
import io.tollgate.config.TenantsConfig;
import io.tollgate.config.TollgateConfig;
import io.tollgate.llm.Price;
import io.tollgate.llm.Prices;
import io.tollgate.llm.TokenEstimate;
import io.tollgate.llm.Usage;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * What calls cost at the configured prices ({@code prices:} over the bundled table): a call's
 * estimate before it is sent, when some limit counts spend, and its usage once it is known.
 */
final class Pricing {

  /** A call's cost, and the table's name for its model (a bounded set, fit for a metric). */
  record Cost(String model, long microUsd) {}

  private final TollgateConfig config;
  private final boolean reservesSpend;
  /** Read on first use: a gate whose calls are never priced never reads the table. */
  private volatile Prices table;

  Pricing(TollgateConfig config) {
    this.config = config;
    this.reservesSpend = limitsSpend(config);
  }

  /** Whether any limit counts spend: then every call reserves its priced estimate. */
  boolean reservesSpend() {
    return reservesSpend;
  }

  /**
   * The micro-dollars to reserve for a call sending {@code model}: the whole prompt at the input
   * price (whether the cache will serve part of it is not known yet) and the output cap at the
   * output price. 0 when no limit counts spend or the model has no price.
   */
  long estimate(Optional<String> model, TokenEstimate estimate) {
    if (!reservesSpend || model.isEmpty()) {
      return 0;
    }
    return table().of(model.get())
        .map(price -> Prices.microUsd(price, estimate.promptTokens(), estimate.outputTokens()))
        .orElse(0L);
  }

  /**
   * What {@code usage} cost, priced by the model that answered (its response's {@code model}),
   * else by the model sent; empty when neither has a price.
   */
  Optional<Cost> cost(Usage usage, Optional<String> sent) {
    Optional<String> model = usage.model().or(() -> sent);
    Optional<String> name = model.flatMap(m -> table().nameOf(m));
    if (name.isEmpty() && usage.model().isPresent() && sent.isPresent()) {
      model = sent; // an Azure deployment's price may be configured under the deployment's name
      name = table().nameOf(sent.get());
    }
    if (name.isEmpty()) {
      return Optional.empty();
    }
    Price price = table().models().get(name.get());
    return Optional.of(new Cost(name.get(), Prices.microUsd(price, usage)));
  }

  private Prices table() {
    Prices read = table;
    if (read == null) {
      read = config.priceTable();
      table = read;
    }
    return read;
  }

  private static boolean limitsSpend(TollgateConfig config) {
    Stream<LimitsConfig> providers = config.providers().values().stream().flatMap(
        (ProviderConfig p) -> Stream.concat(Stream.of(p.limits()), p.models().values().stream()));
    Stream<LimitsConfig> tenants = config.tenants().stream().flatMap((TenantsConfig t) ->
        Stream.concat(Stream.of(t.limits()), t.overrides().values().stream()));
    return Stream.concat(providers, tenants).anyMatch(LimitsConfig::limitsSpend);
  }
}
