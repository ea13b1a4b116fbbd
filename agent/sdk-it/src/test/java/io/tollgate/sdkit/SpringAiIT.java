package io.tollgate.sdkit;

/**
 * Spring AI's OpenAI chat model, {@code call} on Spring's {@code RestClient} and {@code stream} on
 * its {@code WebClient}, both over the JDK {@code HttpClient}, under the agent.
 */
class SpringAiIT extends SdkAgentContract {

  @Override
  String app() {
    return "io.tollgate.sdkit.app.SpringAiApp";
  }

  @Override
  String limitedLine(int step, String kind) {
    // Spring AI's exception for an error response, its message the status and the agent's body
    return "step " + step + " " + kind
        + " error status=429 type=NonTransientAiException detail=rate_limit_exceeded";
  }
}
