package io.tollgate.sdkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.sdkit.ForkedSdkApp.Run;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The official OpenAI Java SDK ({@code com.openai:openai-java}), on OkHttp, under the agent. */
class OpenAiSdkIT extends SdkAgentContract {

  @Test
  void limitsTheSdksAsyncClient() throws Exception {
    limitsTheAsynchronousClientToo();
  }

  @Test
  void aSpentBudgetReachesTheAppAsTheSdksInsufficientQuotaError() throws Exception {
    // gpt-4o at 1 USD per million output tokens, input free; the mock answers with all 300 output
    // tokens the app allows, so a call costs exactly its estimate, 300 µUSD, whenever its settle
    // lands: 700 hold two calls, not three
    primary.usage(PROMPT_TOKENS, 300);
    Path config = Files.writeString(dir.resolve("tollgate.yaml"), """
        tollgate:
          redis:
            url: %s
            timeout: 2s # a cold forked JVM's first calls may be slow; a timeout would fail open
          prices:
            gpt-4o: { input: 0, output: 1 }
          providers:
            primary:
              base-url: %s
              limits:
                usd-per-day: 0.0007
        """.formatted(redis.uri(), primary.baseUrl()));

    Run run = app(config, primary).run("chat", "chat", "chat");

    assertThat(run.exitCode()).as(run.toString()).isZero();
    String ok = " chat ok model=" + model() + " usage=" + PROMPT_TOKENS + "/300 text=" + PRIMARY_TEXT;
    assertThat(run.steps()).as(run.toString()).containsExactly(
        "step 1" + ok,
        "step 2" + ok,
        "step 3 chat error status=429 type=RateLimitException"
            + " detail=insufficient_quota/insufficient_quota");
    assertThat(primary.requests()).hasSize(2);
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
