package io.tollgate.config;

import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every rule, with the exact message it fails with: the full key first, then the bad value. */
class ValidationTest {

  private static final String OPENAI = """
      tollgate:
        providers:
          openai:
            base-url: https://api.openai.com
      """;

  @ParameterizedTest(name = "{1}")
  @MethodSource("invalid")
  void rejects(String yaml, String message) {
    assertThatThrownBy(() -> Loaders.yaml(yaml))
        .isInstanceOf(ConfigException.class)
        .hasMessage(message);
  }

  static Stream<Arguments> invalid() {
    return Stream.of(
        // top level
        arguments("tollgate:\n  mode: bogus\n",
            "tollgate.mode must be one of enforce, shadow, advisory, canary, off, was bogus"),
        arguments("tollgate:\n  mode: ENFORCE\n",
            "tollgate.mode must be one of enforce, shadow, advisory, canary, off, was ENFORCE"),
        arguments("tollgate:\n  on-limit: queue\n",
            "tollgate.on-limit must be one of reject, wait, was queue"),
        arguments("tollgate:\n  max-wait: -1s\n",
            "tollgate.max-wait must be >= 0, was -1s"),
        arguments("tollgate:\n  strict: yes\n",
            "tollgate.strict must be true or false, was yes"),

        // limits
        arguments(OPENAI + "      limits:\n        tokens-per-minute: -5\n",
            "tollgate.providers.openai.limits.tokens-per-minute must be > 0, was -5"),
        arguments(OPENAI + "      limits:\n        requests-per-second: 0\n",
            "tollgate.providers.openai.limits.requests-per-second must be > 0, was 0"),
        arguments(OPENAI + "      limits:\n        requests-per-hour: abc\n",
            "tollgate.providers.openai.limits.requests-per-hour must be a whole number, was abc"),
        arguments(OPENAI + "      limits:\n        requests-per-day: 1_000\n",
            "tollgate.providers.openai.limits.requests-per-day must be a whole number, was 1_000"),
        arguments(OPENAI + "      limits:\n        tokens-per-hour: 2.5\n",
            "tollgate.providers.openai.limits.tokens-per-hour must be a whole number, was 2.5"),
        arguments(OPENAI + "      limits:\n        tokens-per-day: 99999999999999999999\n",
            "tollgate.providers.openai.limits.tokens-per-day is too large a number, was 99999999999999999999"),
        arguments(OPENAI + "      limits:\n        tokens-per-second: 2000000000000000\n",
            "tollgate.providers.openai.limits.tokens-per-second is too large to count exactly,"
                + " was 2000000000000000"),
        arguments(OPENAI + "      limits:\n        requests-per-minute: 5\n        algorithm: leaky-bucket\n",
            "tollgate.providers.openai.limits.algorithm must be one of token-bucket, sliding-window,"
                + " was leaky-bucket"),

        // redis
        arguments("tollgate:\n  redis:\n    url: http://cache:6379\n",
            "tollgate.redis.url must be a redis:// or rediss:// URL with host and port, such as"
                + " redis://127.0.0.1:6379, was http://cache:6379"),
        arguments("tollgate:\n  redis:\n    url: redis://default:hunter2@cache\n",
            "tollgate.redis.url must be a redis:// or rediss:// URL with host and port, such as"
                + " redis://127.0.0.1:6379, was redis://***@cache"),
        arguments("tollgate:\n  redis:\n    url: redis://cache:6379\n    cluster: [a:7000]\n",
            "tollgate.redis.url and cluster are both set; keep one of them"),
        arguments("tollgate:\n  redis:\n    timeout: 100ms\n",
            "tollgate.redis.url or cluster is required when redis is configured"),
        arguments("tollgate:\n  redis:\n    cluster: [a:7000, b]\n",
            "tollgate.redis.cluster[1] must be host:port with a port in 1..65535, was b"),
        arguments("tollgate:\n  redis:\n    cluster: [a:70000]\n",
            "tollgate.redis.cluster[0] must be host:port with a port in 1..65535, was a:70000"),
        arguments("tollgate:\n  redis:\n    cluster: ['rediss://:pw1@a:7000', 'redis://:pw1@b:7001']\n",
            "tollgate.redis.cluster[1] must use rediss:// like cluster[0]: every entry uses the same scheme,"
                + " was redis://***@b:7001"),
        arguments("tollgate:\n  redis:\n    cluster: [a:7000, 'rediss://b:7001']\n",
            "tollgate.redis.cluster[1] must use redis:// (or host:port) like cluster[0]: every entry uses"
                + " the same scheme, was rediss://b:7001"),
        arguments("tollgate:\n  redis:\n    cluster: ['redis://app:pw1@a:7000', 'redis://app:pw2@b:7001']\n",
            "tollgate.redis.cluster[1] must carry the same user:password@ as cluster[0]: one login signs in"
                + " to every node, was redis://***@b:7001"),
        arguments("tollgate:\n  redis:\n    cluster: ['redis://app:pw1@a:7000', 'redis://ops:pw1@b:7001']\n",
            "tollgate.redis.cluster[1] must carry the same user:password@ as cluster[0]: one login signs in"
                + " to every node, was redis://***@b:7001"),
        arguments("tollgate:\n  redis:\n    cluster: ['redis://:pw1@a:7000', b:7001]\n",
            "tollgate.redis.cluster[1] must carry the same user:password@ as cluster[0]: one login signs in"
                + " to every node, was b:7001"),
        arguments("tollgate:\n  redis:\n    cluster: [a:7000, 'redis://:pw1@b:7001']\n",
            "tollgate.redis.cluster[1] must carry no user:password@, like cluster[0]: one login signs in"
                + " to every node, was redis://***@b:7001"),
        arguments("tollgate:\n  redis:\n    cluster: ['redis://:pw1@a']\n",
            "tollgate.redis.cluster[0] must be redis://[user:password@]host:port or"
                + " rediss://[user:password@]host:port, was redis://***@a"),
        arguments("tollgate:\n  redis:\n    cluster: ['redis://:pw1@a:7000/1']\n",
            "tollgate.redis.cluster[0] must be redis://[user:password@]host:port or"
                + " rediss://[user:password@]host:port, was redis://***@a:7000/1"),
        arguments("tollgate:\n  redis:\n    cluster: ['http://a:7000']\n",
            "tollgate.redis.cluster[0] must be redis://[user:password@]host:port or"
                + " rediss://[user:password@]host:port, was http://a:7000"),
        arguments("tollgate:\n  redis:\n    cluster: ['redis://pw1@a:7000']\n",
            "tollgate.redis.cluster[0] must give the password as user:password@ or :password@,"
                + " was redis://***@a:7000"),
        arguments("tollgate:\n  redis:\n    cluster: ['redis://app:@a:7000']\n",
            "tollgate.redis.cluster[0] must give the password as user:password@ or :password@,"
                + " was redis://***@a:7000"),
        arguments("tollgate:\n  redis:\n    cluster: ['redis://:pa/ss@word@a:7000']\n",
            "tollgate.redis.cluster[0] must be redis://[user:password@]host:port or"
                + " rediss://[user:password@]host:port, was redis://***@a:7000"),
        arguments("tollgate:\n  redis:\n    url: redis://pw1@cache:6379\n",
            "tollgate.redis.url must give the password as user:password@ or :password@,"
                + " was redis://***@cache:6379"),
        arguments("tollgate:\n  redis:\n    url: redis://cache:6379\n    timeout: 0ms\n",
            "tollgate.redis.timeout must be at least 1ms, was 0s"),
        arguments("tollgate:\n  redis:\n    url: redis://cache:6379\n    on-failure: fail-safe\n",
            "tollgate.redis.on-failure must be one of fail-open, fail-closed, was fail-safe"),
        arguments("tollgate:\n  redis:\n    url: redis://cache:6379\n    local-share: 0\n",
            "tollgate.redis.local-share must be in (0, 1], was 0.0"),
        arguments("tollgate:\n  redis:\n    url: redis://cache:6379\n    local-share: 1.5\n",
            "tollgate.redis.local-share must be in (0, 1], was 1.5"),
        arguments("tollgate:\n  redis:\n    url: redis://cache:6379\n    local-share: half\n",
            "tollgate.redis.local-share must be a number such as 0.5, was half"),
        arguments("tollgate:\n  redis:\n    url: redis://cache:6379\n    pool-size: 0\n",
            "tollgate.redis.pool-size must be > 0, was 0"),
        arguments("tollgate:\n  redis:\n    url: redis://cache:6379\n    pool-size: 3000000000\n",
            "tollgate.redis.pool-size is too large a number, was 3000000000"),
        arguments("tollgate:\n  redis:\n    url: redis://cache:6379\n    reservation-ttl: 0s\n",
            "tollgate.redis.reservation-ttl must be at least 1ms, was 0s"),

        // providers
        arguments("tollgate:\n  providers:\n    openai:\n      api: openai\n",
            "tollgate.providers.openai.base-url is required"),
        arguments("tollgate:\n  providers:\n    openai:\n      base-url: api.openai.com\n",
            "tollgate.providers.openai.base-url must be an absolute http or https URL, was api.openai.com"),
        arguments("tollgate:\n  providers:\n    openai:\n      base-url: ftp://files.example\n",
            "tollgate.providers.openai.base-url must be an absolute http or https URL, was ftp://files.example"),
        arguments("tollgate:\n  providers:\n    openai:\n      base-url: https://user:sk-x@api.example/\\n\n",
            "tollgate.providers.openai.base-url must be an absolute http or https URL,"
                + " was https://***@api.example/\\n"),
        arguments(OPENAI + "      api: gemini\n",
            "tollgate.providers.openai.api must be one of openai, azure-openai, anthropic, was gemini"),
        arguments("tollgate:\n  providers:\n    'my provider':\n      base-url: https://x.example\n",
            "tollgate.providers.my provider is not a usable provider name: use letters, digits, '-' and '_'"),
        arguments(OPENAI + "      fallbacks: [bakup]\n    backup:\n      base-url: http://127.0.0.1:9002\n",
            "tollgate.providers.openai.fallbacks[0] must name a configured provider, was bakup;"
                + " did you mean backup?"),
        arguments(OPENAI + "      fallbacks: [azure]\n    backup:\n      base-url: http://127.0.0.1:9002\n",
            "tollgate.providers.openai.fallbacks[0] must name a configured provider, was azure;"
                + " known: [backup]"),
        arguments(OPENAI + "      fallbacks: [backup]\n",
            "tollgate.providers.openai.fallbacks[0] must name a configured provider, was backup;"
                + " no other provider is configured"),
        arguments(OPENAI + "      fallbacks: [openai]\n",
            "tollgate.providers.openai.fallbacks[0] must not be the provider itself, was openai"),
        arguments(OPENAI + "      fallbacks: [backup, backup]\n",
            "tollgate.providers.openai.fallbacks[1] repeats an earlier fallback, was backup"),
        arguments(OPENAI + "      fallbacks: [backup, '']\n",
            "tollgate.providers.openai.fallbacks[1] must name a provider, was \"\""),
        arguments(OPENAI + "    copy:\n      base-url: https://api.openai.com\n",
            "tollgate.providers.copy.base-url is the same as tollgate.providers.openai.base-url,"
                + " was https://api.openai.com"),
        arguments(OPENAI + "      model-map:\n        gpt-4o: ''\n",
            "tollgate.providers.openai.model-map.gpt-4o must name a model, was \"\""),

        // tenants
        arguments("tollgate:\n  tenants:\n    header: X-Tenant-Id\n    api-key-header: Authorization\n",
            "tollgate.tenants.header and api-key-header are both set; keep one of them"),
        arguments("tollgate:\n  tenants:\n    limits:\n      requests-per-minute: 60\n",
            "tollgate.tenants.header or api-key-header is required when tenants is configured:"
                + " it says who the tenant is"),
        arguments("tollgate:\n  tenants:\n    header: X Tenant\n",
            "tollgate.tenants.header must be an HTTP header name, was X Tenant"),
        arguments("tollgate:\n  tenants:\n    header: X-Tenant-Id\n    overrides:\n      premium:\n"
                + "        requests-per-minute: -1\n",
            "tollgate.tenants.overrides.premium.requests-per-minute must be > 0, was -1"),

        // breaker, tokens
        arguments("tollgate:\n  breaker:\n    failures: 0\n",
            "tollgate.breaker.failures must be > 0, was 0"),
        arguments("tollgate:\n  breaker:\n    window: 0s\n",
            "tollgate.breaker.window must be at least 1ms, was 0s"),
        arguments("tollgate:\n  breaker:\n    open-for: -30s\n",
            "tollgate.breaker.open-for must be at least 1ms, was -30s"),
        arguments("tollgate:\n  breaker:\n    max-open-for: 0s\n",
            "tollgate.breaker.max-open-for must be at least 1ms, was 0s"),
        arguments("tollgate:\n  breaker:\n    max-open-for: 10s\n",
            "tollgate.breaker.max-open-for must be >= open-for (30s), was 10s"),
        arguments("tollgate:\n  breaker:\n    open-for: 2m\n    max-open-for: 90s\n",
            "tollgate.breaker.max-open-for must be >= open-for (2m), was 90s"),
        arguments("tollgate:\n  tokens:\n    default-max-output: 0\n",
            "tollgate.tokens.default-max-output must be > 0, was 0"));
  }
}
