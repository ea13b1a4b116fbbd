package io.tollgate.sdkit;

/**
 * LangChain4j's OpenAI chat and streaming models, on the JDK {@code HttpClient} ({@code send} and
 * {@code sendAsync}), under the agent.
 */
class LangChain4jIT extends SdkAgentContract {

  @Override
  String app() {
    return "io.tollgate.sdkit.app.LangChain4jApp";
  }

  @Override
  String limitedLine(int step, String kind) {
    // LangChain4j's RateLimitException over an HttpException of status 429 and the agent's body
    return "step " + step + " " + kind
        + " error status=429 type=RateLimitException detail=rate_limit_exceeded";
  }
}
