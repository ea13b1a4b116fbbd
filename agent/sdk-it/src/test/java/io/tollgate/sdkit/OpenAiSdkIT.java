package io.tollgate.sdkit;

import org.junit.jupiter.api.Test;

/** The official OpenAI Java SDK ({@code com.openai:openai-java}), on OkHttp, under the agent. */
class OpenAiSdkIT extends SdkAgentContract {

  @Test
  void limitsTheSdksAsyncClient() throws Exception {
    limitsTheAsynchronousClientToo();
  }

  @Override
  String app() {
    return "io.tollgate.sdkit.app.OpenAiSdkApp";
  }

  @Override
  String api() {
    return "openai";
  }

  @Override
  String model() {
    return "gpt-4o";
  }

  @Override
  String backupModel() {
    return "gpt-4o-mini";
  }

  @Override
  String appKeyHeader() {
    return "authorization";
  }

  @Override
  String appKeyValue(String key) {
    return "Bearer " + key;
  }

  @Override
  String fallbackKeyHeader() {
    return "authorization";
  }

  @Override
  String fallbackKeyValue(String key) {
    return "Bearer " + key;
  }

  @Override
  String limitedLine(int step, String kind) {
    // the SDK's RateLimitException, its code and type parsed from the agent's OpenAI-shaped body
    return "step " + step + " " + kind
        + " error status=429 type=RateLimitException detail=rate_limit_exceeded/requests";
  }
}
