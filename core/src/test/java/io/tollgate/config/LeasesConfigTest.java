package io.tollgate.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import io.tollgate.limiter.LeasePolicy;
import io.tollgate.limiter.Limit;
import io.tollgate.limiter.Limits;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** A {@code leases:} section inside {@code limits:}, and what the limiter gets from it. */
class LeasesConfigTest {

  private static final String TENANTS = """
      tollgate:
        tenants:
          header: X-Tenant-Id
          limits:
            requests-per-minute: 6000
      """;

  @Test
  void leasesReachTheLimiterWithTheLimitsTheyServe() {
    TenantsConfig tenants = Loaders.yaml(TENANTS
        + "      leases:\n        size: auto\n        ttl: 250ms\n").tenants().orElseThrow();

    assertThat(tenants.limits().leases().orElseThrow().size()).isEmpty();
    assertThat(tenants.limits().toLimits()).isEqualTo(
        Limits.of(Limit.requests(6000, Duration.ofMinutes(1)))
            .withLeases(LeasePolicy.auto(Duration.ofMillis(250))));
  }

  @Test
  void aFixedSizeAndTheDefaultTtl() {
    LeasesConfig leases = Loaders.yaml(TENANTS + "      leases:\n        size: 50\n")
        .tenants().orElseThrow().limits().leases().orElseThrow();

    assertThat(leases.size()).hasValue(50);
    assertThat(leases.ttl()).isEqualTo(Duration.ofMillis(200));
    assertThat(leases).hasToString("{size=50, ttl=200ms}");
  }

  @Test
  void withoutTheSectionNothingIsLeased() {
    LimitsConfig limits = Loaders.yaml(TENANTS).tenants().orElseThrow().limits();

    assertThat(limits.leases()).isEmpty();
    assertThat(limits.toLimits().leases()).isEmpty();
  }

  @Test
  void anOverrideKeepsTheBaseLeasesUnlessItSetsItsOwn() {
    TenantsConfig tenants = Loaders.yaml(TENANTS
        + "      leases: { size: auto }\n"
        + "    overrides:\n"
        + "      premium:\n"
        + "        requests-per-minute: 60000\n"
        + "      batch:\n"
        + "        leases: { size: 500, ttl: 1s }\n").tenants().orElseThrow();

    assertThat(tenants.limitsFor("premium").toLimits().leases())
        .contains(LeasePolicy.auto(Duration.ofMillis(200)));
    assertThat(tenants.limitsFor("batch").toLimits().leases())
        .contains(LeasePolicy.ofCalls(500, Duration.ofSeconds(1)));
  }

  @Test
  void propertiesAndEnvironmentSetTheSameKeys() {
    TollgateConfig config = Loaders.with(Map.of(
            "TOLLGATE_PROVIDERS_OPENAI_LIMITS_LEASES_TTL", "100ms"))
        .fromProperties(Map.of(
            "tollgate.providers.openai.base-url", "https://api.openai.com",
            "tollgate.providers.openai.limits.requests-per-minute", "500",
            "tollgate.providers.openai.limits.leases.size", "auto"));

    assertThat(config.provider("openai").orElseThrow().limits().toLimits().leases())
        .contains(LeasePolicy.auto(Duration.ofMillis(100)));
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("invalid")
  void aBadValueFailsNamingTheFullKey(String yaml, String message) {
    assertThatThrownBy(() -> Loaders.yaml(TENANTS + yaml))
        .isInstanceOf(ConfigException.class)
        .hasMessage(message);
  }

  static Stream<Arguments> invalid() {
    return Stream.of(
        arguments("      leases:\n        size: big\n",
            "tollgate.tenants.limits.leases.size must be auto or a whole number of calls > 0,"
                + " was big"),
        arguments("      leases:\n        size: 0\n",
            "tollgate.tenants.limits.leases.size must be auto or a whole number of calls > 0,"
                + " was 0"),
        arguments("      leases:\n        size: -3\n",
            "tollgate.tenants.limits.leases.size must be auto or a whole number of calls > 0,"
                + " was -3"),
        arguments("      leases:\n        ttl: 200\n",
            "tollgate.tenants.limits.leases.ttl " + Durations.EXPECTED
                + "; a bare number has no unit, was 200"),
        arguments("      leases:\n        ttl: 2m\n",
            "tollgate.tenants.limits.leases.ttl must be between 1ms and 1m, was 2m"),
        arguments("      leases:\n        ttl: 0ms\n",
            "tollgate.tenants.limits.leases.ttl must be between 1ms and 1m, was 0s"),
        arguments("      leases:\n        sise: 10\n",
            "tollgate.tenants.limits.leases.sise is not a known key; did you mean size?"),
        arguments("      leases: auto\n",
            "tollgate.tenants.limits.leases must be a section of keys, was a single value"),
        arguments("    overrides:\n      premium:\n        leases:\n          ttl: 5m\n",
            "tollgate.tenants.overrides.premium.leases.ttl must be between 1ms and 1m, was 5m"));
  }
}
