package io.tollgate.gate.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.config.LimitsConfig;
import io.tollgate.config.ProviderConfig;
import io.tollgate.limiter.Charge;
import io.tollgate.limiter.Limit;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The account's charge per model: one subject, a group per model, bounded for models under "*". */
class ProviderChargesTest {

  private static ProviderConfig provider(ProviderConfig.Builder b) {
    return b.baseUrl("https://api.openai.com").build();
  }

  @Test
  void theAccountAndTheModelAreOneChargeOnTheAccountsSubject() {
    ProviderCharges charges = new ProviderCharges(provider(ProviderConfig.builder("openai")
        .limits(LimitsConfig.builder().requestsPerMinute(500).build())
        .model("gpt-4o", LimitsConfig.builder().requestsPerMinute(50).build())));

    Charge charge = charges.charge(Optional.of("GPT-4o")).orElseThrow();

    assertThat(charge.subject().scope()).isEqualTo("provider");
    assertThat(charge.limits().all()).extracting(Limit::capacity).containsExactly(500L, 50L);
    assertThat(charge.limits().all()).extracting(Limit::group)
        .containsExactly("", ProviderCharges.group("gpt-4o"));
    assertThat(charge.limits().all().get(1).stateField())
        .isEqualTo(ProviderCharges.group("gpt-4o") + "|rb60000000:50");
  }

  @Test
  void aModelWithoutLimitsIsChargedToTheAccountAlone() {
    ProviderCharges charges = new ProviderCharges(provider(ProviderConfig.builder("openai")
        .limits(LimitsConfig.builder().requestsPerMinute(500).build())
        .model("gpt-4o", LimitsConfig.builder().requestsPerMinute(50).build())));

    assertThat(charges.charge(Optional.of("o3")).orElseThrow().limits().all())
        .extracting(Limit::capacity).containsExactly(500L);
    assertThat(charges.charge(Optional.empty()).orElseThrow().limits().all()).hasSize(1);
  }

  @Test
  void noLimitAnywhereChargesNothing() {
    ProviderCharges charges = new ProviderCharges(provider(ProviderConfig.builder("openai")));

    assertThat(charges.chargesAccount()).isFalse();
    assertThat(charges.charge(Optional.of("gpt-4o"))).isEmpty();
  }

  @Test
  void groupsAreDigestsNeverTheModelsName() {
    String hostile = "gpt-4o\r\n}{tg:evil";

    String group = ProviderCharges.group(hostile);

    assertThat(group).matches("m[A-Za-z0-9_-]{15}").doesNotContain("gpt");
    assertThat(group).isNotEqualTo(ProviderCharges.group("gpt-4o"));
  }

  @Test
  void modelsBeyondTheBoundOfTheStarShareOneGroup() {
    ProviderCharges charges = new ProviderCharges(provider(ProviderConfig.builder("openai")
        .model("gpt-4o", LimitsConfig.builder().requestsPerMinute(50).build())
        .model("*", LimitsConfig.builder().requestsPerMinute(5).build())));
    Set<String> groups = new HashSet<>();

    for (int i = 0; i < ProviderCharges.MAX_OTHER_MODELS + 10; i++) {
      groups.add(charges.charge(Optional.of("made-up-" + i)).orElseThrow().limits().all().get(0).group());
    }
    String named = charges.charge(Optional.of("gpt-4o")).orElseThrow().limits().all().get(0).group();

    assertThat(groups).hasSize(ProviderCharges.MAX_OTHER_MODELS + 1).contains(ProviderCharges.OVERFLOW_GROUP);
    assertThat(named).isEqualTo(ProviderCharges.group("gpt-4o"));
  }
}
