package io.tollgate.llm;

import io.tollgate.llm.internal.AnthropicProtocol;
import io.tollgate.llm.internal.AzureOpenAiProtocol;
import io.tollgate.llm.internal.OpenAiProtocol;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;

/**
 * How one provider API is spoken: the one interface the router and the front ends call for
 * everything provider-specific. Implementations are immutable and thread-safe; no method throws
 * on malformed input (a bad body gives a flagged estimate, an unreadable response an unknown
 * usage).
 */
public interface LlmProtocol {

  /** The protocol of {@code api}, reading time from the system clock. */
  static LlmProtocol of(ProviderApi api) {
    return of(api, Clock.systemUTC());
  }

  /** The protocol of {@code api}; {@code clock} turns HTTP-dates and reset timestamps into durations. */
  static LlmProtocol of(ProviderApi api, Clock clock) {
    Objects.requireNonNull(api, "api");
    Objects.requireNonNull(clock, "clock");
    return switch (api) {
      case OPENAI -> new OpenAiProtocol(clock);
      case AZURE_OPENAI -> new AzureOpenAiProtocol(clock);
      case ANTHROPIC -> new AnthropicProtocol(clock);
    };
  }

  ProviderApi api();

  /**
   * Reads a request about to be sent.
   *
   * @param path the request's path, with or without its query ({@code
   *     /openai/deployments/gpt-4o/chat/completions?api-version=2024-10-21}); a full URL works too
   * @param body the JSON body (empty for none)
   * @param defaultMaxOutput tokens to reserve for the output when the body names no cap ({@code
   *     tokens.default-max-output})
   */
  default LlmRequest readRequest(String path, byte[] body, long defaultMaxOutput) {
    return readRequest(path, body, 0, body == null ? 0 : body.length, defaultMaxOutput);
  }

  /** As {@link #readRequest(String, byte[], long)}, for {@code length} bytes of {@code body} at {@code offset}. */
  LlmRequest readRequest(String path, byte[] body, int offset, int length, long defaultMaxOutput);

  /**
   * Reads a request of which Tollgate holds only the start, the rest streaming to the provider
   * unread (a body over {@code tokens.max-buffered-body}): the model, output cap and stream flag as
   * far as {@code prefix} holds them (a setting the prefix does not hold counts as absent: no model,
   * the {@code defaultMaxOutput} cap), the prompt estimated from the body's size as {@link
   * TokenEstimate#fromBodySize} does. An endpoint that consumes no tokens stays at zero.
   *
   * @param prefix the bytes held: the body's first bytes, possibly none
   * @param bodyBytes the body's length as far as it is known: its declared length, else the bytes
   *     seen so far
   */
  LlmRequest readRequestPrefix(String path, byte[] prefix, long bodyBytes, long defaultMaxOutput);

  /**
   * A tap for a response body. {@code text/event-stream} is read as SSE and a JSON type as JSON;
   * with no content type the request's {@code streaming} flag decides; any other type is sniffed
   * from its first byte.
   */
  UsageTap newUsageTap(String contentType, boolean streaming);

  /**
   * As {@link #newUsageTap(String, boolean)}, knowing the request: its model chooses the tokenizer
   * for an output estimate, and its prompt estimate stands in for the input when the response
   * never reports usage.
   */
  UsageTap newUsageTap(String contentType, LlmRequest request);

  /** What a response's status and headers say. */
  default ProviderSignals signals(int status, Headers headers) {
    return signals(status, headers, null);
  }

  /**
   * What a response's status, headers and (error) body say; the body refines the class (context
   * length, quota exhausted, overloaded). Only its first 64 KiB are read; null for none.
   */
  ProviderSignals signals(int status, Headers headers, byte[] errorBody);

  /** The provider's own 429 for a refusal by Tollgate's limiter. */
  SyntheticResponse syntheticRateLimit(RateLimitNotice notice);

  /**
   * The provider's own "overloaded" answer (503; 529 for Anthropic) when no provider can take the
   * call.
   *
   * @param retryAfter when to try again, or null when unknown
   * @param message what the error body says
   */
  SyntheticResponse syntheticUnavailable(Duration retryAfter, String message);
}
