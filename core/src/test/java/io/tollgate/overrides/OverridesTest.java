package io.tollgate.overrides;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.config.ConfigException;
import io.tollgate.config.LimitsConfig;
import io.tollgate.config.TollgateConfig;
import io.tollgate.config.TollgateConfigLoader;
import io.tollgate.limiter.Subject;
import io.tollgate.redis.RedisConnection;
import io.tollgate.testkit.redis.RedisServer;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * Overrides kept in a real Redis: what one instance sets the next reads, every change is in the
 * audit list with who and what before, and a wrong value fails naming its key as a file's would.
 */
class OverridesTest {

  private static final TollgateConfig CONFIG = TollgateConfigLoader.builder().environment(Map.of()).build().fromYaml("""
      tollgate:
        providers:
          openai:
            base-url: https://api.openai.com
            limits: { requests-per-minute: 500 }
        tenants:
          header: X-Tenant-Id
          limits: { requests-per-minute: 60, tokens-per-day: 1000000 }
      """);

  private static RedisServer server;
  private RedisConnection connection;
  private Overrides one;
  private Overrides two;

  /** The outbound subject a gate looks {@code id}'s override up by. */
  private static Subject tenant(String id) {
    return CONFIG.tenants().orElseThrow().subject(OverrideTarget.TENANT_SCOPE, id);
  }

  @BeforeAll
  static void startRedis() {
    server = RedisServer.start();
  }

  @AfterAll
  static void stopRedis() {
    server.close();
  }

  @BeforeEach
  void connect() {
    server.flushAll();
    connection = RedisConnection.of(server.uri());
    one = new Overrides(OverrideStore.redis(connection), CONFIG, true);
    two = new Overrides(OverrideStore.redis(connection), CONFIG, true);
  }

  @AfterEach
  void close() {
    one.close();
    two.close();
    connection.close();
  }

  @Test
  void whatOneInstanceSetsTheOtherReadsAtItsNextPoll() {
    OverrideChange change = one.set(OverrideTarget.tenant("acme"),
        Map.of("requests-per-minute", "600", "usd-per-day", "5.5"), "alice");

    assertThat(change.version()).isEqualTo(1);
    assertThat(change.action()).isEqualTo("set");
    assertThat(change.label()).isEqualTo("tenant acme");
    assertThat(change.by()).isEqualTo("alice");
    assertThat(change.before()).isEmpty();
    assertThat(change.after()).containsExactlyInAnyOrderEntriesOf(
        Map.of("requests-per-minute", "600", "usd-per-day", "5.5"));
    assertThat(two.current().version()).isZero();
    two.refresh();
    assertThat(two.current().version()).isEqualTo(1);
    LimitsConfig acme = two.tenantLimits(tenant("acme")).orElseThrow();
    assertThat(acme.requestsPerMinute()).hasValue(600);
    assertThat(acme.usdPerDayMicros()).hasValue(5_500_000);
    assertThat(two.tenantLimits(tenant("other"))).isEmpty();
  }

  @Test
  void theTenantIdIsKeptHashedAndOnlyTheOperatorsLabelShowsIt() {
    one.set(OverrideTarget.tenant("acme"), Map.of("requests-per-minute", "600"), "alice");

    try (Jedis jedis = server.jedis()) {
      Set<String> keys = new TreeSet<>(jedis.keys("tg:{live}:*"));
      assertThat(keys).containsExactly("tg:{live}:audit", "tg:{live}:epoch", "tg:{live}:overrides",
          "tg:{live}:version");
      Set<String> fields = jedis.hkeys("tg:{live}:overrides");
      assertThat(fields).hasSize(1);
      assertThat(fields.iterator().next()).startsWith("tenant:").doesNotContain("acme");
    }
    assertThat(one.list()).singleElement().satisfies(entry -> {
      assertThat(entry.label()).isEqualTo("tenant acme");
      assertThat(entry.limits()).containsExactly(Map.entry("requests-per-minute", "600"));
      assertThat(entry.by()).isEqualTo("alice");
    });
  }

  @Test
  void theAuditListHoldsEveryChangeNewestFirstWithWhatWasBefore() {
    one.set(OverrideTarget.provider("openai"), Map.of("requests-per-minute", "100"), "alice");
    two.set(OverrideTarget.provider("openai"), Map.of("requests-per-minute", "200"), "bob");
    assertThat(one.remove(OverrideTarget.provider("openai"), "carol")).isPresent();
    assertThat(one.remove(OverrideTarget.provider("openai"), "carol")).isEmpty();

    List<OverrideChange> audit = two.audit(10);
    assertThat(audit).extracting(OverrideChange::version).containsExactly(3L, 2L, 1L);
    assertThat(audit).extracting(OverrideChange::action).containsExactly("remove", "set", "set");
    assertThat(audit).extracting(OverrideChange::by).containsExactly("carol", "bob", "alice");
    assertThat(audit.get(0).before()).containsExactly(Map.entry("requests-per-minute", "200"));
    assertThat(audit.get(0).after()).isEmpty();
    assertThat(audit.get(1).before()).containsExactly(Map.entry("requests-per-minute", "100"));
    assertThat(audit.get(1).after()).containsExactly(Map.entry("requests-per-minute", "200"));
    assertThat(audit.get(0).at()).isAfterOrEqualTo(audit.get(2).at());
    two.refresh();
    assertThat(two.providerLimits("openai")).isEmpty();
  }

  @Test
  void aRedisThatLostItsDataAndCountsAgainIsReadAgainAtTheSameVersionNumber() throws Exception {
    one.set(OverrideTarget.tenant("acme"), Map.of("requests-per-minute", "600"), "alice");
    two.refresh();
    assertThat(two.current().version()).isEqualTo(1);
    server.flushAll();
    Thread.sleep(2); // the new count begins at a later millisecond

    one.set(OverrideTarget.tenant("other"), Map.of("requests-per-minute", "7"), "bob");
    two.refresh();

    // version 1 again, of another count: two holds what Redis holds now
    assertThat(two.current().version()).isEqualTo(1);
    assertThat(two.tenantLimits(tenant("acme"))).isEmpty();
    assertThat(two.tenantLimits(tenant("other")).orElseThrow()
        .requestsPerMinute()).hasValue(7);
  }

  @Test
  void theAuditListKeepsTheLatestThousandChanges() {
    for (int i = 1; i <= OverrideStore.AUDIT_LENGTH + 5; i++) {
      one.set(OverrideTarget.provider("openai"), Map.of("requests-per-minute", Integer.toString(i)), "ops");
    }
    try (Jedis jedis = server.jedis()) {
      assertThat(jedis.llen("tg:{live}:audit")).isEqualTo(OverrideStore.AUDIT_LENGTH);
    }
    List<OverrideChange> audit = one.audit(OverrideStore.AUDIT_LENGTH + 5);
    assertThat(audit).hasSize(OverrideStore.AUDIT_LENGTH);
    assertThat(audit.get(0).version()).isEqualTo(OverrideStore.AUDIT_LENGTH + 5);
    assertThat(audit.get(audit.size() - 1).version()).isEqualTo(6);
  }

  @Test
  void aWrongKeyOrValueFailsNamingItAndNothingIsStored() {
    assertThatThrownBy(() -> one.set(OverrideTarget.tenant("acme"),
        Map.of("requests-per-minut", "600"), "alice"))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("tollgate.tenants.overrides.acme.requests-per-minut")
        .hasMessageContaining("requests-per-minute");
    assertThatThrownBy(() -> one.set(OverrideTarget.model("openai", "gpt-4o"),
        Map.of("tokens-per-minute", "-3"), "alice"))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith("tollgate.providers.openai.models.gpt-4o.tokens-per-minute");
    assertThatThrownBy(() -> one.set(OverrideTarget.provider("azure"),
        Map.of("requests-per-minute", "5"), "alice"))
        .isInstanceOf(ConfigException.class)
        .hasMessage("tollgate.providers.azure is not a configured provider; known: [openai]");
    assertThatThrownBy(() -> one.set(OverrideTarget.tenant("acme"), Map.of(), "alice"))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith("tollgate.tenants.overrides.acme sets no limit");
    assertThatThrownBy(() -> one.set(OverrideTarget.tenant("evil\nline"),
        Map.of("requests-per-minute", "5"), "alice"))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith("tollgate.tenants.overrides takes tenant ids of")
        .hasMessageNotContaining("evil");
    assertThat(one.current().version()).isZero();
    assertThat(one.list()).isEmpty();
  }

  @Test
  void withoutATenantsSectionATenantCannotBeOverridden() {
    TollgateConfig noTenants = TollgateConfigLoader.builder().environment(Map.of()).build().fromYaml("""
        tollgate:
          providers:
            openai: { base-url: https://api.openai.com }
        """);
    try (Overrides overrides = new Overrides(OverrideStore.redis(connection), noTenants, true)) {
      assertThatThrownBy(() -> overrides.set(OverrideTarget.tenant("acme"),
          Map.of("requests-per-minute", "5"), "alice"))
          .isInstanceOf(ConfigException.class)
          .hasMessage("tollgate.tenants is not configured: a tenant's limits cannot be overridden");
    }
  }

  @Test
  void theAuthorIsKeptAsPrintableTextOfBoundedLength() {
    OverrideChange change = one.set(OverrideTarget.provider("openai"),
        Map.of("requests-per-minute", "5"), "mallory\r\nforged: yes" + "x".repeat(100));

    assertThat(change.by()).startsWith("mallory__forged: yes").hasSize(Overrides.MAX_AUTHOR);
  }

  @Test
  void inMemoryTheSameRulesHoldForOneJvm() {
    try (Overrides local = new Overrides(OverrideStore.inMemory(Clock.systemUTC()), CONFIG, false)) {
      local.set(OverrideTarget.tenant("acme"), Map.of("requests-per-minute", "7"), "alice");
      assertThat(local.current().version()).isEqualTo(1);
      assertThat(local.tenantLimits(tenant("acme")).orElseThrow()
          .requestsPerMinute()).hasValue(7);
      assertThat(local.remove(OverrideTarget.tenant("acme"), "bob")).isPresent();
      assertThat(local.audit(5)).extracting(OverrideChange::action).containsExactly("remove", "set");
      assertThat(local.current().entries()).isEmpty();
    }
  }
}
