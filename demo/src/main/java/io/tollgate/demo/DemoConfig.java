package io.tollgate.demo;

import io.tollgate.testkit.llm.MockLlmServer;

/**
 * The {@code tollgate.yaml} the agent runs with: the primary with the backup as its fallback, limits
 * small enough to be reached within the run, and a breaker quick enough to open, probe and close in
 * it; the status page on a port of loopback. No {@code redis:} section: {@code TOLLGATE_REDIS_URL} adds one.
 */
final class DemoConfig {

  static final String PRIMARY = "demo-primary";
  static final String BACKUP = "demo-backup";
  static final String PRIMARY_MODEL = "gpt-4o";
  static final String BACKUP_MODEL = "gpt-4o-mini";
  /** The app's key, which only the primary accepts. */
  static final String APP_KEY = "sk-demo-app-key-for-primary";
  /** The backup's own key, which Tollgate sends when it reroutes a call there. */
  static final String BACKUP_KEY = "sk-demo-backup-key";
  static final String BACKUP_KEY_VARIABLE = "DEMO_BACKUP_API_KEY";
  static final int DEFAULT_MAX_OUTPUT = 1024;

  private DemoConfig() {}

  static String yaml(MockLlmServer primary, MockLlmServer backup, int statusPort) {
    return String.join("\n",
        "# Written by the demo (io.tollgate.demo.Demo) for this run.",
        "tollgate:",
        "  mode: enforce",
        "  on-limit: reject",
        "  providers:",
        "    " + PRIMARY + ":",
        "      base-url: " + primary.baseUrl(),
        "      api: openai",
        "      limits:",
        "        requests-per-minute: 90",
        "        tokens-per-minute: 9000",
        "      fallbacks: [" + BACKUP + "]",
        "    " + BACKUP + ":",
        "      base-url: " + backup.baseUrl(),
        "      api: openai",
        "      api-key: ${" + BACKUP_KEY_VARIABLE + "}",
        "      limits:",
        "        requests-per-minute: 120",
        "      model-map:",
        "        " + PRIMARY_MODEL + ": " + BACKUP_MODEL,
        "  breaker:",
        "    failures: 3",
        "    window: 10s",
        "    open-for: 3s",
        "  tokens:",
        "    default-max-output: " + DEFAULT_MAX_OUTPUT,
        "  status:",
        "    port: " + statusPort,
        "    bind: 127.0.0.1",
        "");
  }
}
