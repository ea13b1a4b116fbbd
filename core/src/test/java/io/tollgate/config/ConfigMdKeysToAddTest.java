package io.tollgate.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The keys CONFIG.md names under "Keys to add" that are built, written exactly as it writes them
 * (comments included), read to what they say.
 */
class ConfigMdKeysToAddTest {

  private static final String VERIFY_HOST =
      "    verify-host: true           # rediss://: check the certificate's host name (false only for testing)";
  private static final String CREDENTIAL_HEADERS =
      "  credential-headers: [x-my-gateway-key]   # more secret headers, never forwarded to another host";
  private static final String HASH_KEY =
      "    hash-key: ${TOLLGATE_TENANT_HASH_KEY}   # keys the tenant hash seen in Redis, spans and logs";
  private static final String KNOWN_ONLY =
      "    known-only: false           # true: only tenants listed under overrides are served";
  private static final List<String> MODELS = List.of(
      "      models:                   # per model, as providers enforce them; checked together with limits",
      "        gpt-4o:      { requests-per-minute: 500,  tokens-per-minute: 30000 }",
      "        gpt-4o-mini: { requests-per-minute: 5000, tokens-per-minute: 200000 }",
      "        \"*\":         { requests-per-minute: 100 }   # any other model, each on its own",
      "      learn-limits: true        # adopt the provider's own x-ratelimit-* figures when tighter");

  private static final List<String> SPEND = List.of(
      "      limits:                   # the whole account, every model together",
      "        requests-per-minute: 500",
      "        usd-per-month: 2000     # spend, priced from the tokens used (see prices)");
  private static final List<String> PRICES = List.of(
      "  prices:                       # USD per million tokens; a bundled table covers well-known models",
      "    gpt-4o: { input: 2.50, cached-input: 1.25, output: 10.00 }");
  private static final String TENANT_BUDGET =
      "      usd-per-day: 5.00         # calendar day, UTC; usd-per-month: calendar month, UTC";

  @Test
  void theSpendLinesAreTheContractsOwnAndReadAsWritten() throws IOException {
    Path contract = Path.of("..", "..", "shared", "CONFIG.md");
    assumeTrue(Files.exists(contract), "../shared/CONFIG.md beside the project");
    String keysToAdd = Files.readString(contract).substring(
        Files.readString(contract).indexOf("## Keys to add"));
    assertThat(keysToAdd).contains(String.join("\n", SPEND), String.join("\n", PRICES), TENANT_BUDGET);

    TollgateConfig config = Loaders.yaml(String.join("\n", List.of(
        "tollgate:",
        "  providers:",
        "    openai:",
        "      base-url: https://api.openai.com",
        String.join("\n", SPEND),
        String.join("\n", PRICES),
        "  tenants:",
        "    header: X-Tenant-Id",
        "    limits:",
        TENANT_BUDGET,
        "")));

    assertThat(config.provider("openai").orElseThrow().limits().usdPerMonthMicros()).hasValue(2_000_000_000L);
    assertThat(config.prices()).containsOnlyKeys("gpt-4o");
    assertThat(config.tenants().orElseThrow().limits().usdPerDayMicros()).hasValue(5_000_000L);
  }

  @Test
  void theLinesAreTheContractsOwn() throws IOException {
    Path contract = Path.of("..", "..", "shared", "CONFIG.md");
    assumeTrue(Files.exists(contract), "../shared/CONFIG.md beside the project");
    String markdown = Files.readString(contract);
    String keysToAdd = markdown.substring(markdown.indexOf("## Keys to add"));

    assertThat(keysToAdd).contains(VERIFY_HOST, CREDENTIAL_HEADERS, HASH_KEY, KNOWN_ONLY,
        String.join("\n", MODELS));
  }

  @Test
  void theModelsReadAsWritten() {
    String yaml = String.join("\n", List.of(
        "tollgate:",
        "  providers:",
        "    openai:",
        "      base-url: https://api.openai.com",
        String.join("\n", MODELS),
        ""));

    ProviderConfig openai = Loaders.yaml(yaml).provider("openai").orElseThrow();

    assertThat(openai.models()).containsOnlyKeys("gpt-4o", "gpt-4o-mini", "*");
    assertThat(openai.modelLimits("gpt-4o").requestsPerMinute()).hasValue(500);
    assertThat(openai.modelLimits("gpt-4o").tokensPerMinute()).hasValue(30_000);
    assertThat(openai.modelLimits("GPT-4o-Mini").tokensPerMinute()).hasValue(200_000);
    assertThat(openai.modelLimits("o3").requestsPerMinute()).hasValue(100);
    assertThat(openai.modelLimits("o3").tokensPerMinute()).isEmpty();
    assertThat(openai.learnLimits()).isTrue();
  }

  @Test
  void theBuiltKeysReadAsWritten() {
    String yaml = String.join("\n", List.of(
        "tollgate:",
        "  redis:",
        "    url: rediss://redis.internal:6380",
        VERIFY_HOST,
        CREDENTIAL_HEADERS,
        "  tenants:",
        "    header: X-Tenant-Id",
        HASH_KEY,
        KNOWN_ONLY,
        ""));
    String hashKey = "a-fleet-secret-of-32-bytes-0123456";

    TollgateConfig config = Loaders.yaml(yaml, Map.of("TOLLGATE_TENANT_HASH_KEY", hashKey));

    assertThat(config.redis().orElseThrow().verifyHost()).isTrue();
    assertThat(config.credentialHeaders()).containsExactly("x-my-gateway-key");
    assertThat(config.tenants().orElseThrow().hashKey()).hasValueSatisfying(
        secret -> assertThat(secret.reveal()).isEqualTo(hashKey));
    assertThat(config.tenants().orElseThrow().knownOnly()).isFalse();
  }
}
