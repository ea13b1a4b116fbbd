package io.tollgate.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** {@code mode: canary} with {@code canary-percent}: which tenants are enforced, and the checks. */
class ModeSettingTest {

  private static long enforced(ModeSetting setting) {
    return IntStream.range(0, 1000)
        .filter(i -> setting.forTenant(Optional.of("tenant-" + i)) == Mode.ENFORCE).count();
  }

  @Test
  void aCanaryEnforcesItsShareOfTenantsTheSameOnesEachTimeAndMoreAsItGrows() {
    ModeSetting quarter = new ModeSetting(Mode.CANARY, 25);
    ModeSetting half = new ModeSetting(Mode.CANARY, 50);

    assertThat(enforced(new ModeSetting(Mode.CANARY, 0))).isZero();
    assertThat(enforced(new ModeSetting(Mode.CANARY, 100))).isEqualTo(1000);
    assertThat(enforced(quarter)).isBetween(200L, 300L);
    assertThat(enforced(half)).isBetween(450L, 550L);
    for (int i = 0; i < 1000; i++) {
      Optional<String> tenant = Optional.of("tenant-" + i);
      Mode once = quarter.forTenant(tenant);
      assertThat(quarter.forTenant(tenant)).isEqualTo(once);
      if (once == Mode.ENFORCE) {
        assertThat(half.forTenant(tenant)).isEqualTo(Mode.ENFORCE); // in at 25 %, in at 50 %
      } else {
        assertThat(once).isEqualTo(Mode.SHADOW);
      }
    }
    assertThat(new ModeSetting(Mode.SHADOW, 0).forTenant(Optional.of("a"))).isEqualTo(Mode.SHADOW);
    assertThat(quarter).hasToString("canary 25%");
  }

  @Test
  void canaryAndItsPercentAreReadAndCheckedTogether() {
    assertThat(Loaders.yaml("tollgate:\n  mode: canary\n  canary-percent: 10\n").modeSetting())
        .isEqualTo(new ModeSetting(Mode.CANARY, 10));
    assertThat(Loaders.yaml("tollgate:\n  mode: advisory\n").mode()).isEqualTo(Mode.ADVISORY);
    assertThatThrownBy(() -> Loaders.yaml("tollgate:\n  mode: canary\n"))
        .isInstanceOf(ConfigException.class)
        .hasMessage("tollgate.canary-percent is required with mode: canary: the share of tenants"
            + " enforced, 0 to 100");
    assertThatThrownBy(() -> Loaders.yaml("tollgate:\n  canary-percent: 10\n"))
        .isInstanceOf(ConfigException.class)
        .hasMessage("tollgate.canary-percent is read only with mode: canary, and the mode is"
            + " enforce");
    assertThatThrownBy(() -> Loaders.yaml("tollgate:\n  mode: canary\n  canary-percent: 101\n"))
        .isInstanceOf(ConfigException.class)
        .hasMessage("tollgate.canary-percent must be between 0 and 100, was 101");
  }

  @Test
  void aModeSetLiveIsCheckedAsTheFilesIs() {
    assertThat(ModeSetting.parse(Map.of("mode", "canary", "canary-percent", "30")))
        .isEqualTo(new ModeSetting(Mode.CANARY, 30));
    assertThat(ModeSetting.parse(Map.of("mode", "canary", "canary-percent", "30")).texts())
        .containsExactly(Map.entry("mode", "canary"), Map.entry("canary-percent", "30"));
    assertThatThrownBy(() -> ModeSetting.parse(Map.of("mode", "loud")))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith("tollgate.mode ");
    assertThatThrownBy(() -> ModeSetting.parse(Map.of("mode", "shadow", "percent", "3")))
        .isInstanceOf(ConfigException.class)
        .hasMessage("tollgate.percent is not a key of a mode setting: mode and canary-percent are");
  }
}
