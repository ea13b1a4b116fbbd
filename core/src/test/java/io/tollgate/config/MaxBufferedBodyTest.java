package io.tollgate.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code tollgate.tokens.max-buffered-body}: the most bytes of one body Tollgate holds. */
class MaxBufferedBodyTest {

  @Test
  void isOneMebibyteByDefault() {
    assertThat(Loaders.yaml("tollgate: {}\n").tokens().maxBufferedBody()).isEqualTo(1_048_576);
    assertThat(TokensConfig.ofDefaults().toString())
        .isEqualTo("{default-max-output=1024, max-buffered-body=1MB}");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
      "1MB, 1048576",
      "512KB, 524288",
      "64MB, 67108864",
      "100B, 100",
      "2097152, 2097152",
      "0, 0"})
  void readsBytesOrASizeWithAUnitAsSpringDoes(String written, int bytes) {
    TokensConfig tokens = Loaders.yaml("tollgate:\n  tokens:\n    max-buffered-body: " + written + "\n").tokens();

    assertThat(tokens.maxBufferedBody()).isEqualTo(bytes);
  }

  @Test
  void isReadFromPropertiesAndTheEnvironment() {
    assertThat(Loaders.properties(Map.of("tollgate.tokens.max-buffered-body", "256KB")).tokens()
        .maxBufferedBody()).isEqualTo(262_144);
    assertThat(Loaders.yaml("tollgate:\n  tokens:\n    max-buffered-body: 1MB\n",
        Map.of("TOLLGATE_TOKENS_MAX_BUFFERED_BODY", "2MB")).tokens().maxBufferedBody())
        .isEqualTo(2_097_152);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"1 MB", "1mb", "1.5MB", "-1", "1TB", "lots"})
  void aValueThatIsNoSizeFailsNamingTheKey(String written) {
    assertThatThrownBy(() -> Loaders.yaml("tollgate:\n  tokens:\n    max-buffered-body: '" + written + "'\n"))
        .isInstanceOf(ConfigException.class)
        .hasMessage("tollgate.tokens.max-buffered-body must be a size in bytes: a whole number, or one"
            + " with a unit B, KB, MB or GB (1048576, 512KB, 1MB), was " + written);
  }

  @Test
  void aSizeOver64MegabytesFailsNamingTheKey() {
    assertThatThrownBy(() -> Loaders.yaml("tollgate:\n  tokens:\n    max-buffered-body: 65MB\n"))
        .isInstanceOf(ConfigException.class)
        .hasMessage("tollgate.tokens.max-buffered-body must be from 0 to 64MB, was 65MB");
    assertThatThrownBy(() -> TokensConfig.builder().maxBufferedBody(-1))
        .isInstanceOf(ConfigException.class)
        .hasMessage("max-buffered-body must be from 0 to 64MB, was -1B");
  }

  @Test
  void formatsSizesInTheLargestWholeUnit() {
    assertThat(ByteSizes.format(1 << 20)).isEqualTo("1MB");
    assertThat(ByteSizes.format(1536 * 1024)).isEqualTo("1536KB");
    assertThat(ByteSizes.format(1000)).isEqualTo("1000B");
    assertThat(ByteSizes.format(0)).isEqualTo("0B");
  }
}
