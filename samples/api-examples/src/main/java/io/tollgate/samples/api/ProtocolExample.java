package io.tollgate.samples.api;

import io.tollgate.limiter.Decision;
import io.tollgate.limiter.RateLimiter;
import io.tollgate.limiter.Reservation;
import io.tollgate.llm.Headers;
import io.tollgate.llm.LlmProtocol;
import io.tollgate.llm.LlmRequest;
import io.tollgate.llm.ProviderApi;
import io.tollgate.llm.ProviderSignals;
import io.tollgate.llm.RateLimitNotice;
import io.tollgate.llm.SyntheticResponse;
import io.tollgate.llm.UsageTap;
import io.tollgate.llm.UsageTappingInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** One provider API's protocol used directly: estimate, usage, signals and refusals. */
public final class ProtocolExample {

  private ProtocolExample() {}

  /** What a call's request and response tell, in the order a front end meets them. */
  public static Duration walkThrough(Clock clock, String path, byte[] body, long defaultMaxOutput,
      String contentType, InputStream responseBody, RateLimiter limiter, Reservation reservation,
      int status, Map<String, List<String>> headerMap, byte[] errorBody, Decision decision,
      String model) throws IOException {
    LlmProtocol protocol = LlmProtocol.of(ProviderApi.fromConfig("anthropic"), clock); // or api.protocol()

    LlmRequest request = protocol.readRequest(path, body, defaultMaxOutput);        // before the call
    long reserve = request.estimate().totalTokens();

    UsageTap tap = protocol.newUsageTap(contentType, request);                        // on the response
    InputStream in = UsageTappingInputStream.of(responseBody, tap,
        usage -> { if (usage.known()) limiter.settle(reservation, usage.totalTokens()); });

    ProviderSignals signals = protocol.signals(status, Headers.of(headerMap), errorBody);
    Duration wait = Duration.ZERO;
    if (signals.responseClass().mayFallBack()) { wait = signals.suggestedWait().orElse(wait); }

    SyntheticResponse refusal = protocol.syntheticRateLimit(RateLimitNotice.from(decision, reserve, model));
    in.transferTo(OutputStream.nullOutputStream());
    return refusal.status() == 429 ? wait : Duration.ZERO;
  }
}
