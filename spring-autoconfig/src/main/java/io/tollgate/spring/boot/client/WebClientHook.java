package io.tollgate.spring.boot.client;

import io.tollgate.gate.Gate;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import org.springframework.http.codec.ClientCodecConfigurer;
import org.springframework.web.reactive.function.client.WebClient;

/**
 * Adds a {@link TollgateExchangeFilterFunction} to a {@code WebClient.Builder}, the same for
 * Boot 3.5's and 4.0's {@code WebClientCustomizer}. The filter writes request bodies with the
 * builder's own codecs: it keeps the codec configurer the builder hands out when it builds, which
 * by then holds Boot's and the app's codec settings.
 */
public final class WebClientHook {

  private final Gate gate;

  public WebClientHook(Gate gate) {
    this.gate = Objects.requireNonNull(gate, "gate");
  }

  public void apply(WebClient.Builder builder) {
    AtomicReference<ClientCodecConfigurer> configurer = new AtomicReference<>();
    builder.codecs(configurer::set);
    AtomicReference<TollgateExchangeFilterFunction.Codecs> codecs = new AtomicReference<>();
    builder.filter(new TollgateExchangeFilterFunction(gate, () -> codecs.updateAndGet(known -> {
      if (known != null) {
        return known;
      }
      ClientCodecConfigurer built = configurer.get();
      return built == null ? TollgateExchangeFilterFunction.Codecs.defaults()
          : new TollgateExchangeFilterFunction.Codecs(built.getReaders(), built.getWriters());
    })));
  }
}
