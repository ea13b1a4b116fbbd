package io.tollgate.llm;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.limiter.Decision;
import io.tollgate.limiter.Dimension;
import io.tollgate.limiter.Limit;
import io.tollgate.limiter.LimitState;
import io.tollgate.limiter.Outcome;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** Tollgate's answers in the provider's place: status, headers and body, exactly. */
class SyntheticResponseTest {

  private static final Instant NOW = Instant.parse("2026-05-01T12:00:00Z");
  private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);

  private final LlmProtocol openAi = LlmProtocol.of(ProviderApi.OPENAI, CLOCK);
  private final LlmProtocol azure = LlmProtocol.of(ProviderApi.AZURE_OPENAI, CLOCK);
  private final LlmProtocol anthropic = LlmProtocol.of(ProviderApi.ANTHROPIC, CLOCK);

  /** Out of tokens for this minute: 120 left, the call wants 1500; 2.4 s until it fits. */
  private static final RateLimitNotice TOKENS = RateLimitNotice.builder(Dimension.TOKENS)
      .retryAfter(Duration.ofMillis(2400))
      .requests(500, 499, Duration.ofMillis(120))
      .tokens(30000, 120, Duration.ofMinutes(6))
      .window(Duration.ofMinutes(1))
      .model("gpt-4o")
      .requestedTokens(1500)
      .build();

  @Nested
  class OpenAi {

    @Test
    void aTokenLimitIsA429WithOpenAisHeadersAndBody() {
      SyntheticResponse response = openAi.syntheticRateLimit(TOKENS);

      assertThat(response.status()).isEqualTo(429);
      assertThat(response.headers()).isEqualTo(Headers.of(
          "content-type", "application/json",
          "retry-after", "3",
          "retry-after-ms", "2400",
          "x-ratelimit-limit-requests", "500",
          "x-ratelimit-limit-tokens", "30000",
          "x-ratelimit-remaining-requests", "499",
          "x-ratelimit-remaining-tokens", "120",
          "x-ratelimit-reset-requests", "120ms",
          "x-ratelimit-reset-tokens", "6m0s",
          "x-tollgate", "rate-limited"));
      assertThat(response.bodyAsString()).isEqualTo("{\"error\":{"
          + "\"message\":\"Rate limit reached for gpt-4o on tokens per min (TPM): Limit 30000, Remaining 120, "
          + "Requested 1500. Please try again in 2.4s. (Tollgate)\","
          + "\"type\":\"tokens\",\"param\":null,\"code\":\"rate_limit_exceeded\"}}");
    }

    @Test
    void aRequestLimitSaysRequests() {
      SyntheticResponse response = openAi.syntheticRateLimit(RateLimitNotice.builder(Dimension.REQUESTS)
          .retryAfter(Duration.ofMillis(120))
          .requests(500, 0, Duration.ofMillis(120))
          .window(Duration.ofMinutes(1))
          .build());

      assertThat(response.headers()).isEqualTo(Headers.of(
          "content-type", "application/json",
          "retry-after", "1",
          "retry-after-ms", "120",
          "x-ratelimit-limit-requests", "500",
          "x-ratelimit-remaining-requests", "0",
          "x-ratelimit-reset-requests", "120ms",
          "x-tollgate", "rate-limited"));
      assertThat(response.bodyAsString()).isEqualTo("{\"error\":{"
          + "\"message\":\"Rate limit reached on requests per min (RPM): Limit 500, Remaining 0. "
          + "Please try again in 120ms. (Tollgate)\","
          + "\"type\":\"requests\",\"param\":null,\"code\":\"rate_limit_exceeded\"}}");
    }

    @Test
    void aCallLargerThanTheLimitIsTooLargeWithNoRetryAfter() {
      SyntheticResponse response = openAi.syntheticRateLimit(RateLimitNotice.builder(Dimension.TOKENS)
          .neverFits(true)
          .tokens(30000, 30000, Duration.ZERO)
          .window(Duration.ofDays(1))
          .model("gpt-4o")
          .requestedTokens(50000)
          .build());

      assertThat(response.headers().first("retry-after")).isEmpty();
      assertThat(response.headers().first("x-ratelimit-reset-tokens")).contains("0s");
      assertThat(response.bodyAsString()).isEqualTo("{\"error\":{"
          + "\"message\":\"Request too large for gpt-4o on tokens per day (TPD): Limit 30000, Remaining 30000, "
          + "Requested 50000. The input or output tokens must be reduced in order to run successfully. (Tollgate)\","
          + "\"type\":\"tokens\",\"param\":null,\"code\":\"rate_limit_exceeded\"}}");
    }

    @Test
    void noProviderIsA503ServerError() {
      SyntheticResponse response = openAi.syntheticUnavailable(Duration.ofMillis(1500), null);

      assertThat(response.status()).isEqualTo(503);
      assertThat(response.headers()).isEqualTo(Headers.of(
          "content-type", "application/json",
          "retry-after", "2",
          "retry-after-ms", "1500",
          "x-tollgate", "no-provider"));
      assertThat(response.bodyAsString()).isEqualTo("{\"error\":{"
          + "\"message\":\"No provider can take this request right now. Please try again later. (Tollgate)\","
          + "\"type\":\"server_error\",\"param\":null,\"code\":null}}");
    }

    @Test
    void aModelNameIsEscapedNotInjected() {
      SyntheticResponse response = openAi.syntheticRateLimit(RateLimitNotice.builder(Dimension.REQUESTS)
          .model("evil\",\"code\":\"x").build());

      assertThat(response.bodyAsString()).contains("for evil\\\",\\\"code\\\":\\\"x on requests");
      assertThat(openAi.signals(response.status(), response.headers(), response.body()).errorCode())
          .contains("rate_limit_exceeded");
    }
  }

  @Nested
  class Azure {

    @Test
    void aTokenLimitIsAzuresOwn429() {
      SyntheticResponse response = azure.syntheticRateLimit(TOKENS);

      assertThat(response.status()).isEqualTo(429);
      assertThat(response.headers()).isEqualTo(Headers.of(
          "content-type", "application/json",
          "retry-after", "3",
          "retry-after-ms", "2400",
          "x-ratelimit-limit-requests", "500",
          "x-ratelimit-limit-tokens", "30000",
          "x-ratelimit-remaining-requests", "499",
          "x-ratelimit-remaining-tokens", "120",
          "x-ratelimit-reset-requests", "1",
          "x-ratelimit-reset-tokens", "360",
          "x-tollgate", "rate-limited"));
      assertThat(response.bodyAsString()).isEqualTo("{\"error\":{\"code\":\"429\","
          + "\"message\":\"Requests for gpt-4o have exceeded the rate limit on tokens per min (TPM): Limit 30000, "
          + "Remaining 120, Requested 1500. Please retry after 3 seconds. (Tollgate)\"}}");
    }

    @Test
    void noProviderIsA503ServiceUnavailable() {
      SyntheticResponse response = azure.syntheticUnavailable(null, "All deployments are busy");

      assertThat(response.status()).isEqualTo(503);
      assertThat(response.headers()).isEqualTo(Headers.of("content-type", "application/json", "x-tollgate", "no-provider"));
      assertThat(response.bodyAsString())
          .isEqualTo("{\"error\":{\"code\":\"ServiceUnavailable\",\"message\":\"All deployments are busy\"}}");
    }
  }

  @Nested
  class Anthropic {

    @Test
    void aTokenLimitIsAnthropicsOwn429WithResetTimestamps() {
      SyntheticResponse response = anthropic.syntheticRateLimit(TOKENS);

      assertThat(response.status()).isEqualTo(429);
      assertThat(response.headers()).isEqualTo(Headers.of(
          "content-type", "application/json",
          "retry-after", "3",
          "anthropic-ratelimit-requests-limit", "500",
          "anthropic-ratelimit-requests-remaining", "499",
          "anthropic-ratelimit-requests-reset", "2026-05-01T12:00:01Z",
          "anthropic-ratelimit-tokens-limit", "30000",
          "anthropic-ratelimit-tokens-remaining", "120",
          "anthropic-ratelimit-tokens-reset", "2026-05-01T12:06:00Z",
          "x-tollgate", "rate-limited"));
      assertThat(response.bodyAsString()).isEqualTo("{\"type\":\"error\",\"error\":{\"type\":\"rate_limit_error\","
          + "\"message\":\"This request would exceed the rate limit for gpt-4o on tokens per min (TPM): Limit 30000, "
          + "Remaining 120, Requested 1500. Please try again in 3 seconds. (Tollgate)\"}}");
    }

    @Test
    void noProviderIsAnthropicsOwn529Overloaded() {
      SyntheticResponse response = anthropic.syntheticUnavailable(Duration.ofSeconds(10), null);

      assertThat(response.status()).isEqualTo(529);
      assertThat(response.headers()).isEqualTo(Headers.of(
          "content-type", "application/json", "retry-after", "10", "x-tollgate", "no-provider"));
      assertThat(response.bodyAsString()).isEqualTo("{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\","
          + "\"message\":\"Overloaded: no provider can take this request right now. (Tollgate)\"}}");
    }
  }

  @Nested
  class FromTheLimiter {

    private final Decision deniedOnTokens = new Decision(Outcome.DENIED, List.of(
        new LimitState(Limit.requests(500, Duration.ofMinutes(1)), 499, Duration.ofMillis(120)),
        new LimitState(Limit.tokens(30000, Duration.ofMinutes(1)), 120, Duration.ofMinutes(6)),
        new LimitState(Limit.tokens(1_000_000, Duration.ofDays(1)), 500_000, Duration.ofHours(12))),
        Duration.ofMillis(2400), false, Optional.empty());

    @Test
    void aDenialOnTokensDescribesTheTightestLimitOfEachDimension() {
      RateLimitNotice notice = RateLimitNotice.from(deniedOnTokens, 1500, "gpt-4o");

      assertThat(notice.limitedBy()).isEqualTo(Dimension.TOKENS);
      assertThat(notice.window()).contains(Duration.ofMinutes(1));
      assertThat(notice.tokens()).contains(new Quota(OptionalLong.of(30000), OptionalLong.of(120),
          Optional.of(Duration.ofMinutes(6))));
      assertThat(openAi.syntheticRateLimit(notice)).isEqualTo(openAi.syntheticRateLimit(TOKENS));
    }

    @Test
    void aDenialWithNoRequestLeftIsOnRequests() {
      Decision denied = new Decision(Outcome.DENIED, List.of(
          new LimitState(Limit.requests(60, Duration.ofMinutes(1)), 0, Duration.ofSeconds(1)),
          new LimitState(Limit.tokens(40000, Duration.ofMinutes(1)), 39000, Duration.ofSeconds(2))),
          Duration.ofSeconds(1), false, Optional.empty());

      RateLimitNotice notice = RateLimitNotice.from(denied, 10, null);

      assertThat(notice.limitedBy()).isEqualTo(Dimension.REQUESTS);
      assertThat(notice.model()).isEmpty();
      assertThat(openAi.syntheticRateLimit(notice).bodyAsString()).contains("\"type\":\"requests\"");
    }

    @Test
    void aCallThatNeverFitsSaysSo() {
      Decision never = new Decision(Outcome.NEVER_FITS, List.of(
          new LimitState(Limit.tokens(30000, Duration.ofMinutes(1)), 30000, Duration.ZERO)),
          Duration.ZERO, false, Optional.empty());

      assertThat(RateLimitNotice.from(never, 50000, "gpt-4o").neverFits()).isTrue();
    }
  }

  @Test
  void eachProvidersOwnReaderUnderstandsItsSynthetic429() {
    assertThat(openAi.signals(429, openAi.syntheticRateLimit(TOKENS).headers())).satisfies(signals -> {
      assertThat(signals.responseClass()).isEqualTo(ResponseClass.RATE_LIMITED);
      assertThat(signals.retryAfter()).contains(Duration.ofMillis(2400));
      assertThat(signals.quota(QuotaKind.TOKENS)).contains(new Quota(OptionalLong.of(30000), OptionalLong.of(120),
          Optional.of(Duration.ofMinutes(6))));
    });
    assertThat(anthropic.signals(429, anthropic.syntheticRateLimit(TOKENS).headers())).satisfies(signals -> {
      assertThat(signals.retryAfter()).contains(Duration.ofSeconds(3));
      assertThat(signals.quota(QuotaKind.REQUESTS)).contains(new Quota(OptionalLong.of(500), OptionalLong.of(499),
          Optional.of(Duration.ofSeconds(1))));
    });
    SyntheticResponse overloaded = anthropic.syntheticUnavailable(null, null);
    assertThat(anthropic.signals(overloaded.status(), overloaded.headers(), overloaded.body()).responseClass())
        .isEqualTo(ResponseClass.OVERLOADED);
  }

  @Test
  void aUsersLimitIsNamedAsTheUsersInEveryApiWithTheSameHeaders() {
    RateLimitNotice user = TOKENS.forHolder("user");

    assertThat(user.holder()).contains("user");
    assertThat(openAi.syntheticRateLimit(user).headers()).isEqualTo(openAi.syntheticRateLimit(TOKENS).headers());
    assertThat(openAi.syntheticRateLimit(user).bodyAsString()).isEqualTo("{\"error\":{"
        + "\"message\":\"Rate limit reached for gpt-4o on the user's tokens per min (TPM): Limit 30000,"
        + " Remaining 120, Requested 1500. Please try again in 2.4s. (Tollgate)\","
        + "\"type\":\"tokens\",\"param\":null,\"code\":\"rate_limit_exceeded\"}}");
    assertThat(azure.syntheticRateLimit(user).bodyAsString()).contains("\"message\":\"Requests for gpt-4o"
        + " have exceeded the rate limit on the user's tokens per min (TPM): Limit 30000, Remaining 120,"
        + " Requested 1500. Please retry after 3 seconds. (Tollgate)\"");
    assertThat(anthropic.syntheticRateLimit(user).bodyAsString()).contains("\"message\":\"This request would"
        + " exceed the rate limit for gpt-4o on the user's tokens per min (TPM): Limit 30000, Remaining 120,"
        + " Requested 1500. Please try again in 3 seconds. (Tollgate)\"");
  }

  @Test
  void aUsersSpentBudgetIsNamedAsTheUsers() {
    RateLimitNotice spent = RateLimitNotice.builder(Dimension.SPEND)
        .retryAfter(Duration.ofHours(12))
        .spend(5_000_000, 1_200, Duration.ofHours(12))
        .window(Duration.ofDays(1))
        .requestedSpend(30_000)
        .holder("user")
        .build();

    assertThat(openAi.syntheticRateLimit(spent).bodyAsString()).contains("\"message\":\"You exceeded your"
        + " current quota: the user's spend budget of 5 USD per day (UTC) is used up (Remaining 0.0012 USD,"
        + " Requested 0.03 USD); it starts again at 2026-05-02T00:00:00Z. (Tollgate)\"");
  }

  @Test
  void theBodyIsACopy() {
    SyntheticResponse response = openAi.syntheticUnavailable(null, "x");
    byte[] body = response.body();
    body[0] = 'X';

    assertThat(response.bodyAsString()).startsWith("{");
    assertThat(response.bodyLength()).isEqualTo(body.length);
  }
}
