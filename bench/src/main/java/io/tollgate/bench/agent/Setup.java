package io.tollgate.bench.agent;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * One way of running the same app against the same server: without the agent (the baseline), or
 * with it and a configuration that makes the server a provider (in-memory or Redis limiter) or
 * leaves it an ordinary host.
 */
enum Setup {
  BASELINE("no agent"),
  IN_MEMORY("agent, in-memory limiter"),
  REDIS("agent, Redis limiter"),
  /** In memory, with an Anthropic provider beside the server's: cl100k_base is needed too. */
  ANTHROPIC_TOO("agent, in-memory limiter, an Anthropic provider too"),
  OTHER_HOST("agent, non-provider host"),
  /**
   * The anchor start-up is judged against: the OpenTelemetry Java agent on the same app, its
   * exporters off (nothing listens for them here), everything else as it ships.
   */
  OTEL_AGENT("OpenTelemetry Java agent"),
  /**
   * No agent: the app with jtokkit's o200k_base loading beside it, as the gate loads it. What the
   * tokenizer the gate must load costs on its own, the floor under Tollgate's rows.
   */
  TOKENIZER_ONLY("no agent, jtokkit loading o200k_base beside the app");

  static final long REQUESTS_PER_MINUTE = 100_000_000L;
  static final long TOKENS_PER_MINUTE = 100_000_000_000L;

  /** Limits far out of reach: every call is admitted, as in the limiter benchmark. */
  private static final String LIMITS = """
            limits:
              requests-per-minute: %d
              tokens-per-minute: %d
      """.formatted(REQUESTS_PER_MINUTE, TOKENS_PER_MINUTE);

  final String label;

  Setup(String label) {
    this.label = label;
  }

  /** Tollgate's agent runs in this setup. */
  boolean agent() {
    return this != BASELINE && this != OTEL_AGENT && this != TOKENIZER_ONLY;
  }

  /** Writes this setup's configuration into {@code directory}; null for the baseline. */
  Path writeConfig(Path directory, String serverBaseUrl, String redisUri) throws IOException {
    String yaml = switch (this) {
      case BASELINE, OTEL_AGENT, TOKENIZER_ONLY -> null;
      case IN_MEMORY -> provider(serverBaseUrl);
      case REDIS -> provider(serverBaseUrl) + "  redis:\n    url: " + redisUri + "\n";
      case ANTHROPIC_TOO -> provider(serverBaseUrl) + """
              claude:
                base-url: https://api.anthropic.invalid
                api: anthropic
          """;
      // a provider on another host: the calls to the server are not the gate's business
      case OTHER_HOST -> provider("https://api.openai.invalid");
    };
    if (yaml == null) {
      return null;
    }
    Path file = directory.resolve(name().toLowerCase(java.util.Locale.ROOT) + ".yaml");
    Files.writeString(file, yaml);
    return file;
  }

  private static String provider(String baseUrl) {
    return """
        tollgate:
          providers:
            openai:
              base-url: %s
              api: openai
        """.formatted(baseUrl) + LIMITS;
  }
}
