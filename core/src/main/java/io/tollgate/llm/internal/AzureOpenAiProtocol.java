package io.tollgate.llm.internal;

import io.tollgate.limiter.Dimension;
import io.tollgate.llm.Headers;
import io.tollgate.llm.ProviderApi;
import io.tollgate.llm.RateLimitNotice;
import io.tollgate.llm.SyntheticResponse;
import java.time.Clock;
import java.time.Duration;

/**
 * Azure OpenAI: requests name their deployment in the path; a 429 carries {@code retry-after},
 * {@code retry-after-ms} and {@code x-ratelimit-*} (resets in whole seconds, as Azure sends
 * them) and Azure's own body {@code {"error": {"code": "429", "message": "... Please retry after
 * N seconds."}}}.
 */
public final class AzureOpenAiProtocol extends BaseProtocol {

  public AzureOpenAiProtocol(Clock clock) {
    super(ProviderApi.AZURE_OPENAI, clock);
  }

  @Override
  public SyntheticResponse syntheticRateLimit(RateLimitNotice notice) {
    long seconds = Durations.ceilSeconds(notice.retryAfter());
    Headers.Builder headers = Headers.builder().add("content-type", SyntheticBodies.CONTENT_TYPE);
    if (!notice.neverFits()) {
      SyntheticBodies.retryAfter(headers, notice.retryAfter());
    }
    OpenAiProtocol.rateLimitHeaders(headers, notice, d -> Long.toString(Durations.ceilSeconds(d)));
    if (notice.limitedBy() == Dimension.SPEND) {
      // Azure has no spend error of its own: OpenAI's, which its SDKs read alike
      headers.add(SyntheticBodies.MARKER, "budget-spent");
      return SyntheticResponse.of(429, headers.build(),
          OpenAiProtocol.insufficientQuota(notice, clock.instant()));
    }
    headers.add(SyntheticBodies.MARKER, "rate-limited");
    String figures = SyntheticBodies.figures(notice);
    String message = "Requests" + SyntheticBodies.forModel(notice) + " have exceeded the rate limit on "
        + SyntheticBodies.per(notice)
        + (figures.isEmpty() ? "" : ": " + figures) + "."
        + (notice.neverFits()
            ? " The request is larger than the limit and must be reduced."
            : " Please retry after " + SyntheticBodies.seconds(seconds) + ".")
        + " (Tollgate)";
    byte[] body = SyntheticBodies.json(g -> {
      g.writeStartObject();
      g.writeObjectFieldStart("error");
      g.writeStringField("code", "429");
      g.writeStringField("message", message);
      g.writeEndObject();
      g.writeEndObject();
    });
    return SyntheticResponse.of(429, headers.build(), body);
  }

  @Override
  public SyntheticResponse syntheticUnavailable(Duration retryAfter, String message) {
    Headers.Builder headers = Headers.builder().add("content-type", SyntheticBodies.CONTENT_TYPE);
    if (retryAfter != null && !retryAfter.isNegative()) {
      SyntheticBodies.retryAfter(headers, retryAfter);
    }
    headers.add(SyntheticBodies.MARKER, "no-provider");
    String text = message == null || message.isBlank() ? OpenAiProtocol.UNAVAILABLE : message;
    byte[] body = SyntheticBodies.json(g -> {
      g.writeStartObject();
      g.writeObjectFieldStart("error");
      g.writeStringField("code", "ServiceUnavailable");
      g.writeStringField("message", text);
      g.writeEndObject();
      g.writeEndObject();
    });
    return SyntheticResponse.of(503, headers.build(), body);
  }
}
