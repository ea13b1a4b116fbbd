package io.tollgate.llm;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Retry-After and the providers' rate-limit headers, read against a fixed clock. */
class ProviderSignalsTest {

  /** Sunday 6 Nov 1994 08:49:07 GMT: 30 s before the RFC 9110 example date. */
  private static final Instant NOW = Instant.parse("1994-11-06T08:49:07Z");

  private final LlmProtocol openAi = LlmProtocol.of(ProviderApi.OPENAI, Clock.fixed(NOW, ZoneOffset.UTC));
  private final LlmProtocol anthropic = LlmProtocol.of(ProviderApi.ANTHROPIC, Clock.fixed(NOW, ZoneOffset.UTC));

  private Optional<Duration> retryAfter(String... headers) {
    return openAi.signals(429, Headers.of(headers)).retryAfter();
  }

  @Nested
  class RetryAfter {

    @Test
    void deltaSeconds() {
      assertThat(retryAfter("Retry-After", "120")).contains(Duration.ofSeconds(120));
      assertThat(retryAfter("retry-after", "0")).contains(Duration.ZERO);
      assertThat(retryAfter("retry-after", " 1.5 ")).contains(Duration.ofMillis(1500));
    }

    @Test
    void httpDateInAllThreeFormsFromTheClocksNow() {
      assertThat(retryAfter("Retry-After", "Sun, 06 Nov 1994 08:49:37 GMT")).contains(Duration.ofSeconds(30));
      assertThat(retryAfter("Retry-After", "Sunday, 06-Nov-94 08:49:37 GMT")).contains(Duration.ofSeconds(30));
      assertThat(retryAfter("Retry-After", "Sun Nov  6 08:49:37 1994")).contains(Duration.ofSeconds(30));
    }

    @Test
    void aDateInThePastMeansNow() {
      assertThat(retryAfter("Retry-After", "Sun, 06 Nov 1994 08:00:00 GMT")).contains(Duration.ZERO);
    }

    @Test
    void milliSecondsWinAsTheOpenAiSdksHaveIt() {
      assertThat(retryAfter("retry-after", "3", "retry-after-ms", "2500")).contains(Duration.ofMillis(2500));
      assertThat(retryAfter("retry-after-ms", "0.5")).contains(Duration.ofNanos(500_000));
      assertThat(retryAfter("retry-after-ms", "soon", "retry-after", "4")).contains(Duration.ofSeconds(4));
    }

    @Test
    void anythingElseIsNoAdvice() {
      assertThat(retryAfter()).isEmpty();
      assertThat(retryAfter("Retry-After", "")).isEmpty();
      assertThat(retryAfter("Retry-After", "-5")).isEmpty();
      assertThat(retryAfter("Retry-After", "soon")).isEmpty();
      assertThat(retryAfter("Retry-After", "99999999999999999999999")).isEmpty();
      assertThat(retryAfter("Retry-After", "Sun, 32 Nov 1994 08:49:37 GMT")).isEmpty();
    }
  }

  @Nested
  class OpenAiHeaders {

    @ParameterizedTest(name = "{0} -> {1} ms")
    @CsvSource({
      "1s, 1000",
      "6m0s, 360000",
      "1m30s, 90000",
      "20ms, 20",
      "0.5s, 500",
      "7.66s, 7660",
      "2m59.56s, 179560",
      "1h0m0s, 3600000",
      "2h3m4.5s, 7384500",
      "17, 17000",
      "250us, 0",
      "0s, 0",
    })
    void resetDurationsInGoFormat(String value, long millis) {
      ProviderSignals signals = openAi.signals(200, Headers.of("x-ratelimit-reset-tokens", value));

      assertThat(signals.quota(QuotaKind.TOKENS).flatMap(Quota::resetAfter).map(Duration::toMillis)).contains(millis);
    }

    @Test
    void unreadableDurationsAreAbsent() {
      for (String value : new String[] {"", "abc", "1x", "-1s", "1.2.3s", "s", "5m-3s"}) {
        assertThat(openAi.signals(200, Headers.of("x-ratelimit-reset-tokens", value)).quotas()).as(value).isEmpty();
      }
    }

    @Test
    void readsBothDimensions() {
      ProviderSignals signals = openAi.signals(200, Headers.of(
          "x-ratelimit-limit-requests", "5000",
          "x-ratelimit-limit-tokens", "160000",
          "x-ratelimit-remaining-requests", "4999",
          "x-ratelimit-remaining-tokens", "159976",
          "x-ratelimit-reset-requests", "12ms",
          "x-ratelimit-reset-tokens", "9ms"));

      assertThat(signals.status()).isEqualTo(200);
      assertThat(signals.responseClass()).isEqualTo(ResponseClass.SUCCESS);
      assertThat(signals.quotas()).containsOnlyKeys(QuotaKind.REQUESTS, QuotaKind.TOKENS);
      assertThat(signals.quota(QuotaKind.REQUESTS)).contains(
          new Quota(OptionalLong.of(5000), OptionalLong.of(4999), Optional.of(Duration.ofMillis(12))));
      assertThat(signals.quota(QuotaKind.TOKENS)).contains(
          new Quota(OptionalLong.of(160000), OptionalLong.of(159976), Optional.of(Duration.ofMillis(9))));
      assertThat(signals.tightestRemainingRatio()).isEqualTo(OptionalDouble.of(4999 / 5000.0));
    }

    @Test
    void namesInAnyCaseAmongOtherFieldsTheFirstValueCounting() {
      ProviderSignals signals = openAi.signals(429, Headers.of(
          "Content-Type", "application/json",
          "X-RateLimit-Remaining-Requests", "7",
          "x-request-id", "req_1",
          "x-ratelimit-remaining-requests", "99",
          "X-RATELIMIT-LIMIT-REQUESTS", "10",
          "Retry-After", "4"));

      assertThat(signals.quotas()).containsOnlyKeys(QuotaKind.REQUESTS);
      assertThat(signals.quota(QuotaKind.REQUESTS)).contains(
          new Quota(OptionalLong.of(10), OptionalLong.of(7), Optional.empty()));
      assertThat(signals.retryAfter()).contains(Duration.ofSeconds(4));
    }

    @Test
    void azuresMinusOneMeansNoFigure() {
      ProviderSignals signals = LlmProtocol.of(ProviderApi.AZURE_OPENAI).signals(200, Headers.of(
          "x-ratelimit-limit-tokens", "-1", "x-ratelimit-remaining-tokens", "-1", "x-ratelimit-remaining-requests", "12"));

      assertThat(signals.quota(QuotaKind.TOKENS)).isEmpty();
      assertThat(signals.quota(QuotaKind.REQUESTS)).contains(
          new Quota(OptionalLong.empty(), OptionalLong.of(12), Optional.empty()));
    }
  }

  @Nested
  class AnthropicHeaders {

    @Test
    void readsEveryLimitWithResetsAsTimestamps() {
      ProviderSignals signals = anthropic.signals(429, Headers.of(
          "retry-after", "30",
          "anthropic-ratelimit-requests-limit", "50",
          "anthropic-ratelimit-requests-remaining", "0",
          "anthropic-ratelimit-requests-reset", "1994-11-06T08:49:37Z",
          "anthropic-ratelimit-tokens-limit", "90000",
          "anthropic-ratelimit-tokens-remaining", "45000",
          "anthropic-ratelimit-tokens-reset", "1994-11-06T09:49:07+01:00",
          "anthropic-ratelimit-input-tokens-limit", "50000",
          "anthropic-ratelimit-input-tokens-remaining", "40000",
          "anthropic-ratelimit-input-tokens-reset", "1994-11-06T08:49:10.500Z",
          "anthropic-ratelimit-output-tokens-limit", "10000",
          "anthropic-ratelimit-output-tokens-remaining", "5000",
          "anthropic-ratelimit-output-tokens-reset", "1994-11-06T08:00:00Z"));

      assertThat(signals.responseClass()).isEqualTo(ResponseClass.RATE_LIMITED);
      assertThat(signals.retryAfter()).contains(Duration.ofSeconds(30));
      assertThat(signals.quota(QuotaKind.REQUESTS)).contains(
          new Quota(OptionalLong.of(50), OptionalLong.of(0), Optional.of(Duration.ofSeconds(30))));
      assertThat(signals.quota(QuotaKind.TOKENS)).contains(
          new Quota(OptionalLong.of(90000), OptionalLong.of(45000), Optional.of(Duration.ZERO)));
      assertThat(signals.quota(QuotaKind.INPUT_TOKENS)).contains(
          new Quota(OptionalLong.of(50000), OptionalLong.of(40000), Optional.of(Duration.ofMillis(3500))));
      assertThat(signals.quota(QuotaKind.OUTPUT_TOKENS)).contains(
          new Quota(OptionalLong.of(10000), OptionalLong.of(5000), Optional.of(Duration.ZERO)));
      assertThat(signals.tightestRemainingRatio()).isEqualTo(OptionalDouble.of(0.0));
    }

    @Test
    void aResetBeyondTheLastInstantIsNoResetRatherThanAnError() {
      ProviderSignals signals = anthropic.signals(200, Headers.of(
          "anthropic-ratelimit-tokens-limit", "90000",
          "anthropic-ratelimit-tokens-remaining", "45000",
          "anthropic-ratelimit-tokens-reset", "9223372036854775807"));

      assertThat(signals.quota(QuotaKind.TOKENS)).contains(
          new Quota(OptionalLong.of(90000), OptionalLong.of(45000), Optional.empty()));
    }

    @Test
    void epochSecondResetsAreReadToo() {
      ProviderSignals signals = anthropic.signals(200,
          Headers.of("anthropic-ratelimit-tokens-reset", Long.toString(NOW.getEpochSecond() + 90)));

      assertThat(signals.quota(QuotaKind.TOKENS).flatMap(Quota::resetAfter)).contains(Duration.ofSeconds(90));
    }

    @Test
    void withoutRetryAfterTheWaitIsTheLongestResetOfAnExhaustedLimit() {
      ProviderSignals signals = anthropic.signals(429, Headers.of(
          "anthropic-ratelimit-requests-remaining", "0",
          "anthropic-ratelimit-requests-reset", "1994-11-06T08:49:17Z",
          "anthropic-ratelimit-tokens-remaining", "0",
          "anthropic-ratelimit-tokens-reset", "1994-11-06T08:49:47Z",
          "anthropic-ratelimit-output-tokens-remaining", "10",
          "anthropic-ratelimit-output-tokens-reset", "1994-11-06T08:59:07Z"));

      assertThat(signals.retryAfter()).isEmpty();
      assertThat(signals.suggestedWait()).contains(Duration.ofSeconds(40));
    }

    @Test
    void noHeadersNoAdvice() {
      ProviderSignals signals = anthropic.signals(200, Headers.empty());

      assertThat(signals.quotas()).isEmpty();
      assertThat(signals.suggestedWait()).isEmpty();
      assertThat(signals.tightestRemainingRatio()).isEmpty();
      assertThat(anthropic.signals(200, null).quotas()).isEmpty();
    }
  }
}
