package io.tollgate.testkit.llm;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * One provider API the mock speaks (OpenAI chat, Azure OpenAI chat, Anthropic messages, OpenAI
 * responses): the checks the real API makes before working, and the shapes of its replies,
 * errors and rate-limit headers. Implementations are stateless; all they need is in the call.
 */
interface ProviderApi {

    /** The error the real API would answer before doing any work (auth, required params, bad JSON). */
    Optional<Reply> reject(ApiCall call);

    /** The normal answer: JSON, or an event stream when the call asked for one. */
    Reply success(ApiCall call);

    /** An error with this status and this API's error body for it. */
    Reply failure(ApiCall call, int status);

    /** How this provider says it is overloaded. */
    Reply overloaded(ApiCall call);

    /** A 429 with this provider's retry-after and rate-limit headers, {@code dimension} exhausted. */
    Reply rateLimited(ApiCall call, LimitedDimension dimension, Duration retryAfter);

    /** Headers the provider puts on every answer to identify the request, whatever the outcome. */
    Map<String, String> requestIdHeaders(ApiCall call);
}
