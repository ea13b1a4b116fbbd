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
  String limitedLine(int step, String kind) {
    // the SDK's RateLimitException, its code and type parsed from the agent's OpenAI-shaped body
    return "step " + step + " " + kind
        + " error status=429 type=RateLimitException detail=rate_limit_exceeded/requests";
  }
}
