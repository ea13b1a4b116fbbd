package io.tollgate.bench.openaiapp;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.EncodingType;

/**
 * {@link OpenAiStartupApp} with jtokkit's {@code o200k_base} loading on a daemon thread as
 * {@code main} begins, as Tollgate's gate loads it for an OpenAI provider, and no agent: what the
 * tokenizer alone adds to the process, measured beside the agents (AgentBench's start-up table).
 *
 * <pre>
 * TokenizerThenApp BASE_URL
 * </pre>
 */
public final class TokenizerThenApp {

  private TokenizerThenApp() {}

  public static void main(String[] args) {
    Thread load = new Thread(
        () -> Encodings.newLazyEncodingRegistry().getEncoding(EncodingType.O200K_BASE),
        "tokenizer-load");
    load.setDaemon(true);
    load.start();
    OpenAiStartupApp.main(args);
  }
}
