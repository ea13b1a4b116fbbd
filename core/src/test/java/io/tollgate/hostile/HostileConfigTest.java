package io.tollgate.hostile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.tollgate.config.ConfigException;
import io.tollgate.config.TollgateConfigLoader;
import io.tollgate.testkit.hostile.HostileBytes;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * A broken configuration fails with a {@link ConfigException} that names the key (or the line of
 * YAML) at fault, never with another exception, and its message never shows a secret the
 * configuration was given.
 */
class HostileConfigTest {

  private static final String OPENAI_KEY = "sk-openai-hostile-0123456789";
  private static final String BACKUP_KEY = "sk-backup-hostile-9876543210";
  private static final TollgateConfigLoader LOADER = TollgateConfigLoader.builder()
      .environment(Map.of("OPENAI_API_KEY", OPENAI_KEY, "BACKUP_API_KEY", BACKUP_KEY)).build();

  @Provide
  Arbitrary<String> configs() {
    return Arbitraries.randoms().map(random -> new String(
        HostileBytes.mutate(Resources.bytes("config/config-md-example.yaml"), random), StandardCharsets.UTF_8));
  }

  @Property(tries = 3000, seed = "20261203")
  void aBrokenConfigurationFailsNamingWhereAndShowsNoSecret(@ForAll("configs") String yaml) {
    Throwable failure = catchThrowable(() -> LOADER.fromYaml(yaml));

    if (failure != null) {
      assertThat(failure).isInstanceOf(ConfigException.class);
      assertThat(failure.getMessage()).isNotBlank()
          .doesNotContain(OPENAI_KEY).doesNotContain(BACKUP_KEY);
      assertThat(((ConfigException) failure).key()).isNotBlank();
    }
  }
}
