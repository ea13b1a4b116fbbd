package io.tollgate.llm.internal;

import io.tollgate.llm.Headers;
import io.tollgate.llm.LlmProtocol;
import io.tollgate.llm.LlmRequest;
import io.tollgate.llm.ProviderApi;
import io.tollgate.llm.ProviderSignals;
import io.tollgate.llm.TokenCounter;
import io.tollgate.llm.UsageTap;
import java.time.Clock;
import java.util.Locale;

/** What every API shares: request reading, usage taps and signals differ only in small ways. */
abstract class BaseProtocol implements LlmProtocol {

  private final ProviderApi api;
  final Clock clock;

  BaseProtocol(ProviderApi api, Clock clock) {
    this.api = api;
    this.clock = clock;
  }

  @Override
  public final ProviderApi api() {
    return api;
  }

  @Override
  public final LlmRequest readRequest(String path, byte[] body, int offset, int length, long defaultMaxOutput) {
    return RequestReader.read(api, path, body, offset, length, defaultMaxOutput);
  }

  @Override
  public final LlmRequest readRequestPrefix(String path, byte[] prefix, long bodyBytes, long defaultMaxOutput) {
    return RequestReader.readPrefix(api, path, prefix, 0, prefix == null ? 0 : prefix.length,
        bodyBytes, defaultMaxOutput);
  }

  @Override
  public final UsageTap newUsageTap(String contentType, boolean streaming) {
    return tap(contentType, streaming, 0, null);
  }

  @Override
  public final UsageTap newUsageTap(String contentType, LlmRequest request) {
    if (request == null) {
      return tap(contentType, false, 0, null);
    }
    return tap(contentType, request.stream(), request.estimate().promptTokens(),
        request.modelOrDeployment().orElse(null));
  }

  @Override
  public final ProviderSignals signals(int status, Headers headers, byte[] errorBody) {
    return Signals.read(status, headers, errorBody, clock.instant());
  }

  /** The tokenizer for an output estimate: Anthropic's approximation on its API, else by model. */
  final TokenCounter tokenizerFor(String model) {
    return api == ProviderApi.ANTHROPIC ? TokenCounter.anthropic() : TokenCounter.forModel(model);
  }

  private UsageTap tap(String contentType, boolean streaming, long fallbackInput, String model) {
    String type = contentType == null ? "" : contentType.toLowerCase(Locale.ROOT);
    if (type.contains("text/event-stream")) {
      return sse(fallbackInput, model);
    }
    if (type.contains("json")) {
      return json(fallbackInput, model);
    }
    if (type.isBlank()) {
      return streaming ? sse(fallbackInput, model) : json(fallbackInput, model);
    }
    return new SniffingUsageTap(() -> json(fallbackInput, model), () -> sse(fallbackInput, model));
  }

  private UsageTap sse(long fallbackInput, String model) {
    return new SseUsageTap(new UsageCollector(fallbackInput, model, this::tokenizerFor));
  }

  private UsageTap json(long fallbackInput, String model) {
    return new JsonUsageTap(new UsageCollector(fallbackInput, model, this::tokenizerFor));
  }
}
