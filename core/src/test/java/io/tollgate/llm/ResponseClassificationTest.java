package io.tollgate.llm;

import static io.tollgate.llm.Fixtures.utf8;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** What a status and error body mean for the router: the table of docs/llm-protocol.md. */
class ResponseClassificationTest {

  @ParameterizedTest(name = "{0} {1} {2} -> {3}")
  @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
    "OPENAI       | 200 | ``                                                                                              | SUCCESS",
    "OPENAI       | 201 | ``                                                                                              | SUCCESS",
    "OPENAI       | 429 | `{\"error\":{\"message\":\"Rate limit reached\",\"type\":\"tokens\",\"param\":null,\"code\":\"rate_limit_exceeded\"}}` | RATE_LIMITED",
    "OPENAI       | 429 | `{\"error\":{\"message\":\"You exceeded your current quota\",\"type\":\"insufficient_quota\",\"param\":null,\"code\":\"insufficient_quota\"}}` | QUOTA_EXHAUSTED",
    "OPENAI       | 400 | `{\"error\":{\"message\":\"This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens.\",\"type\":\"invalid_request_error\",\"param\":\"messages\",\"code\":\"context_length_exceeded\"}}` | CONTEXT_LENGTH_ERROR",
    "OPENAI       | 400 | `{\"error\":{\"message\":\"Your input exceeds the context window of this model.\",\"type\":\"invalid_request_error\",\"param\":\"input\",\"code\":null}}` | CONTEXT_LENGTH_ERROR",
    "OPENAI       | 400 | `{\"error\":{\"message\":\"Invalid value for 'temperature'\",\"type\":\"invalid_request_error\",\"param\":\"temperature\",\"code\":\"invalid_value\"}}` | CLIENT_ERROR",
    "OPENAI       | 401 | `{\"error\":{\"message\":\"Incorrect API key provided\",\"type\":\"invalid_request_error\",\"param\":null,\"code\":\"invalid_api_key\"}}` | AUTH_ERROR",
    "OPENAI       | 403 | ``                                                                                              | AUTH_ERROR",
    "OPENAI       | 404 | `{\"error\":{\"message\":\"The model does not exist\",\"type\":\"invalid_request_error\",\"param\":null,\"code\":\"model_not_found\"}}` | CLIENT_ERROR",
    "OPENAI       | 408 | ``                                                                                              | SERVER_ERROR",
    "OPENAI       | 500 | `{\"error\":{\"message\":\"The server had an error\",\"type\":\"server_error\",\"param\":null,\"code\":null}}` | SERVER_ERROR",
    "OPENAI       | 502 | `<html>Bad Gateway</html>`                                                                      | SERVER_ERROR",
    "OPENAI       | 503 | `{\"error\":{\"message\":\"The engine is currently overloaded, please try again later\",\"type\":\"server_error\"}}` | OVERLOADED",
    "OPENAI       | 504 | ``                                                                                              | SERVER_ERROR",
    "AZURE_OPENAI | 429 | `{\"error\":{\"code\":\"429\",\"message\":\"Requests to the ChatCompletions_Create Operation have exceeded token rate limit. Please retry after 6 seconds.\"}}` | RATE_LIMITED",
    "AZURE_OPENAI | 400 | `{\"error\":{\"message\":\"This model's maximum context length is 8192 tokens.\",\"type\":\"invalid_request_error\",\"param\":\"messages\",\"code\":\"context_length_exceeded\"}}` | CONTEXT_LENGTH_ERROR",
    "AZURE_OPENAI | 400 | `{\"error\":{\"code\":\"content_filter\",\"message\":\"The response was filtered\"}}`         | CLIENT_ERROR",
    "ANTHROPIC    | 429 | `{\"type\":\"error\",\"error\":{\"type\":\"rate_limit_error\",\"message\":\"This request would exceed the rate limit\"}}` | RATE_LIMITED",
    "ANTHROPIC    | 529 | `{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}` | OVERLOADED",
    "ANTHROPIC    | 200 | `{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}` | OVERLOADED",
    "ANTHROPIC    | 500 | `{\"type\":\"error\",\"error\":{\"type\":\"api_error\",\"message\":\"Internal server error\"}}` | SERVER_ERROR",
    "ANTHROPIC    | 400 | `{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"prompt is too long: 208936 tokens > 200000 maximum\"}}` | CONTEXT_LENGTH_ERROR",
    "ANTHROPIC    | 400 | `{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"input length and max_tokens exceed context limit: 197202 + 8192 > 200000\"}}` | CONTEXT_LENGTH_ERROR",
    "ANTHROPIC    | 400 | `{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"Your credit balance is too low to access the Anthropic API.\"}}` | QUOTA_EXHAUSTED",
    "ANTHROPIC    | 400 | `{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"messages: roles must alternate\"}}` | CLIENT_ERROR",
    "ANTHROPIC    | 402 | `{\"type\":\"error\",\"error\":{\"type\":\"billing_error\",\"message\":\"Payment required\"}}` | QUOTA_EXHAUSTED",
    "ANTHROPIC    | 401 | `{\"type\":\"error\",\"error\":{\"type\":\"authentication_error\",\"message\":\"invalid x-api-key\"}}` | AUTH_ERROR",
    "ANTHROPIC    | 413 | `{\"type\":\"error\",\"error\":{\"type\":\"request_too_large\",\"message\":\"Request exceeds the maximum allowed number of bytes.\"}}` | CLIENT_ERROR",
    "ANTHROPIC    | 504 | `{\"type\":\"error\",\"error\":{\"type\":\"timeout_error\",\"message\":\"Request timed out\"}}` | SERVER_ERROR",
    "ANTHROPIC    | 500 | `{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overl` | OVERLOADED",
    "ANTHROPIC    | 400 | `{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"prompt is too lo` | CLIENT_ERROR",
  })
  void classifies(ProviderApi api, int status, String body, ResponseClass expected) {
    ProviderSignals signals = LlmProtocol.of(api).signals(status, Headers.empty(), body.isEmpty() ? null : utf8(body));

    assertThat(signals.responseClass()).isEqualTo(expected);
  }

  @Test
  void withoutABodyTheStatusDecides() {
    LlmProtocol openAi = LlmProtocol.of(ProviderApi.OPENAI);

    assertThat(openAi.signals(429, Headers.empty()).responseClass()).isEqualTo(ResponseClass.RATE_LIMITED);
    assertThat(openAi.signals(400, Headers.empty()).responseClass()).isEqualTo(ResponseClass.CLIENT_ERROR);
    assertThat(openAi.signals(529, Headers.empty()).responseClass()).isEqualTo(ResponseClass.OVERLOADED);
  }

  @Test
  void keepsTheErrorsTypeAndCodeButNotItsMessage() {
    ProviderSignals signals = LlmProtocol.of(ProviderApi.OPENAI).signals(401, Headers.empty(),
        utf8("{\"error\":{\"message\":\"Incorrect API key provided: sk-abc***xyz\",\"type\":\"invalid_request_error\",\"param\":null,\"code\":\"invalid_api_key\"}}"));

    assertThat(signals.errorType()).contains("invalid_request_error");
    assertThat(signals.errorCode()).contains("invalid_api_key");
    assertThat(signals.toString()).doesNotContain("sk-abc");
  }

  @Test
  void whatMayFallBackAndWhatCountsAgainstTheProvider() {
    assertThat(ResponseClass.values()).filteredOn(ResponseClass::mayFallBack).containsExactly(
        ResponseClass.RATE_LIMITED, ResponseClass.QUOTA_EXHAUSTED, ResponseClass.OVERLOADED,
        ResponseClass.SERVER_ERROR, ResponseClass.AUTH_ERROR, ResponseClass.CONTEXT_LENGTH_ERROR);
    assertThat(ResponseClass.values()).filteredOn(ResponseClass::providerFailure).containsExactly(
        ResponseClass.RATE_LIMITED, ResponseClass.QUOTA_EXHAUSTED, ResponseClass.OVERLOADED,
        ResponseClass.SERVER_ERROR);
  }
}
