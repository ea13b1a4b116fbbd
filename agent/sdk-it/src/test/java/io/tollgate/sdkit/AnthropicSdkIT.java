package io.tollgate.sdkit;

import org.junit.jupiter.api.Test;

/**
 * The official Anthropic Java SDK ({@code com.anthropic:anthropic-java}), on OkHttp, under the
 * agent. The SDK (3.x) sends the app's key as {@code Authorization: Bearer}; Tollgate gives an
 * Anthropic fallback its key in {@code x-api-key}, the API's documented header.
 */
class AnthropicSdkIT extends SdkAgentContract {

  @Test
  void limitsTheSdksAsyncClient() throws Exception {
    limitsTheAsynchronousClientToo();
  }

  @Override
  String app() {
    return "io.tollgate.sdkit.app.AnthropicSdkApp";
  }

  @Override
  String api() {
    return "anthropic";
  }

  @Override
  String model() {
    return "claude-sonnet-4-5";
  }

  @Override
  String backupModel() {
    return "claude-haiku-4-5";
  }

  @Override
  String fallbackKeyHeader() {
    return "x-api-key";
  }

  @Override
  String fallbackKeyValue(String key) {
    return key;
  }

  @Override
  String limitedLine(int step, String kind) {
    // the SDK's RateLimitException, its error type parsed from the agent's Anthropic-shaped body
    return "step " + step + " " + kind
        + " error status=429 type=RateLimitException detail=rate_limit_error";
  }
}
