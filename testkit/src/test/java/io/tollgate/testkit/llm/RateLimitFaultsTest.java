package io.tollgate.testkit.llm;

import static io.tollgate.testkit.llm.LlmCalls.chatRequest;
import static io.tollgate.testkit.llm.LlmCalls.json;
import static io.tollgate.testkit.llm.LlmCalls.post;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class RateLimitFaultsTest extends ServerPerClassTest {

    @Test
    void openAiRequestLimitAnswersWithRetryAfterAndExhaustedRequestHeaders() {
        server.script().next(1, Fault.rateLimited(Duration.ofSeconds(2)));

        HttpResponse<String> response = post(client, server.uri("/v1/chat/completions"), chatRequest("gpt-4o", ""));

        assertThat(response.statusCode()).isEqualTo(429);
        assertThat(response.headers().map())
                .containsEntry("retry-after", List.of("2"))
                .containsEntry("retry-after-ms", List.of("2000"))
                .containsEntry("x-ratelimit-limit-requests", List.of("10000"))
                .containsEntry("x-ratelimit-remaining-requests", List.of("0"))
                .containsEntry("x-ratelimit-reset-requests", List.of("2s"))
                .containsEntry("x-ratelimit-limit-tokens", List.of("2000000"))
                .containsEntry("x-ratelimit-remaining-tokens", List.of("1999980"))
                .containsEntry("x-ratelimit-reset-tokens", List.of("1ms"))
                .containsEntry("content-type", List.of("application/json"));
        assertThat(json(response.body())).isEqualTo(json("""
                {"error":{"message":"Rate limit reached for gpt-4o in organization org-mock on requests per min \
                (RPM): Limit 10000, Used 10000, Requested 1. Please try again in 2s. Visit \
                https://platform.openai.com/account/rate-limits to learn more.",
                 "type":"requests","param":null,"code":"rate_limit_exceeded"}}"""));
    }

    @Test
    void openAiTokenLimitExhaustsTokensAndRoundsRetryAfterUp() {
        server.script().next(1, Fault.tokenRateLimited(Duration.ofMillis(6_500)));

        HttpResponse<String> response = post(client, server.uri("/v1/chat/completions"), chatRequest("gpt-4o", ""));

        assertThat(response.statusCode()).isEqualTo(429);
        assertThat(response.headers().map())
                .containsEntry("retry-after", List.of("7"))
                .containsEntry("retry-after-ms", List.of("6500"))
                .containsEntry("x-ratelimit-remaining-requests", List.of("9999"))
                .containsEntry("x-ratelimit-reset-requests", List.of("6ms"))
                .containsEntry("x-ratelimit-remaining-tokens", List.of("0"))
                .containsEntry("x-ratelimit-reset-tokens", List.of("6.5s"));
        assertThat(json(response.body()).at("/error/type").asText()).isEqualTo("tokens");
        assertThat(json(response.body()).at("/error/message").asText()).startsWith(
                "Rate limit reached for gpt-4o in organization org-mock on tokens per min (TPM): Limit 2000000,"
                        + " Used 2000000, Requested 8.");
    }

    @Test
    void rateLimitHeadersStartFromTheConfiguredLimits() {
        server.rateLimits(new RateLimits(60, 12, Duration.ofSeconds(1), 90_000, 80_000, Duration.ofMinutes(6)));
        server.script().next(1, Fault.rateLimited(Duration.ofMinutes(6)));

        HttpResponse<String> response = post(client, server.uri("/v1/chat/completions"), chatRequest("gpt-4o", ""));

        assertThat(response.headers().map())
                .containsEntry("retry-after", List.of("360"))
                .containsEntry("x-ratelimit-limit-requests", List.of("60"))
                .containsEntry("x-ratelimit-remaining-requests", List.of("0"))
                .containsEntry("x-ratelimit-reset-requests", List.of("6m0s"))
                .containsEntry("x-ratelimit-remaining-tokens", List.of("80000"))
                .containsEntry("x-ratelimit-reset-tokens", List.of("6m0s"));
    }

    @Test
    void aStreamRequestGetsTheJsonErrorNotAStream() {
        server.script().next(1, Fault.rateLimited(Duration.ofSeconds(1)));

        HttpResponse<String> response = post(client, server.uri("/v1/chat/completions"),
                chatRequest("gpt-4o", "\"stream\":true"));

        assertThat(response.statusCode()).isEqualTo(429);
        assertThat(response.headers().firstValue("content-type")).hasValue("application/json");
        assertThat(json(response.body()).at("/error/code").asText()).isEqualTo("rate_limit_exceeded");
    }

    @Test
    void azureAnswersWithItsOwnBodyAndOpenAiHeaders() {
        server.script().next(1, Fault.rateLimited(Duration.ofSeconds(3)));

        HttpResponse<String> response = post(client,
                server.uri("/openai/deployments/gpt4o-prod/chat/completions?api-version=2024-10-21"),
                chatRequest("gpt-4o", ""), "api-key", "azure-key");

        assertThat(response.statusCode()).isEqualTo(429);
        assertThat(response.headers().map())
                .containsEntry("retry-after", List.of("3"))
                .containsEntry("retry-after-ms", List.of("3000"))
                .containsEntry("x-ratelimit-remaining-requests", List.of("0"))
                .containsEntry("apim-request-id", List.of("req_mock_1"));
        assertThat(json(response.body())).isEqualTo(json("""
                {"error":{"code":"429","message":"Requests to the ChatCompletions_Create Operation under Azure \
                OpenAI API version 2024-10-21 have exceeded call rate limit of your current OpenAI S0 pricing \
                tier. Please retry after 3 seconds."}}"""));
    }

    @Test
    void anthropicAnswersWithItsErrorShapeAndRateLimitHeaders() {
        server.script().next(1, Fault.rateLimited(Duration.ofSeconds(2)));

        HttpResponse<String> response = post(client, server.uri("/v1/messages"), LlmCalls.ANTHROPIC_REQUEST,
                LlmCalls.ANTHROPIC_HEADERS);

        Instant arrival = server.takeRequest(LlmCalls.TIMEOUT).arrivedAt();
        assertThat(response.statusCode()).isEqualTo(429);
        assertThat(response.headers().map())
                .containsEntry("retry-after", List.of("2"))
                .containsEntry("anthropic-ratelimit-requests-limit", List.of("10000"))
                .containsEntry("anthropic-ratelimit-requests-remaining", List.of("0"))
                .containsEntry("anthropic-ratelimit-tokens-remaining", List.of("1999980"))
                .doesNotContainKey("x-ratelimit-remaining-requests")
                .doesNotContainKey("retry-after-ms");
        Instant reset = Instant.parse(
                response.headers().firstValue("anthropic-ratelimit-requests-reset").orElseThrow());
        assertThat(reset).isAfterOrEqualTo(arrival.plusSeconds(2)).isBefore(arrival.plusSeconds(3));
        assertThat(json(response.body())).isEqualTo(json("""
                {"type":"error","error":{"type":"rate_limit_error","message":"This request would exceed the rate \
                limit for your organization (org-mock) of 10000 requests per minute. Please try again later."}}"""));
    }
}
