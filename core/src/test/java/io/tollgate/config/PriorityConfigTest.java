package io.tollgate.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@code tollgate.priority}: classes and their shares, read and checked as every section is. */
class PriorityConfigTest {

  @Test
  void classesTheirSharesAndTenantsAreRead() {
    PriorityConfig priority = Loaders.yaml("""
        tollgate:
          priority:
            header: X-Priority
            default: normal
            classes: { interactive: 1.0, normal: 0.8, batch: 0.5 }
            tenants: { nightly-etl: batch }
        """).priority().orElseThrow();

    assertThat(priority.header()).hasValue("X-Priority");
    assertThat(priority.classes()).containsExactly(Map.entry("interactive", 1.0),
        Map.entry("normal", 0.8), Map.entry("batch", 0.5));
    assertThat(priority.classOf(Optional.of(" Batch "), Optional.empty())).isEqualTo("batch");
    assertThat(priority.classOf(Optional.empty(), Optional.of("nightly-etl"))).isEqualTo("batch");
    assertThat(priority.classOf(Optional.of("urgent!"), Optional.of("acme"))).isEqualTo("normal");
    assertThat(priority.share("batch")).isEqualTo(0.5);
  }

  @Test
  void withoutClassesCriticalDefaultAndBatchApply() {
    PriorityConfig priority = Loaders.yaml("tollgate:\n  priority:\n    header: X-Priority\n")
        .priority().orElseThrow();

    assertThat(priority.classes()).containsExactly(Map.entry("critical", 1.0),
        Map.entry("default", 0.9), Map.entry("batch", 0.7));
    assertThat(priority.defaultClass()).isEqualTo("default");
    assertThat(Loaders.yaml("tollgate:\n  mode: enforce\n").priority()).isEmpty();
  }

  @Test
  void aWrongValueFailsNamingItsKey() {
    assertThatThrownBy(() -> Loaders.yaml("tollgate:\n  priority:\n    classes: { batch: 1.5 }\n"))
        .isInstanceOf(ConfigException.class)
        .hasMessage("tollgate.priority.classes.batch must be a share more than 0 and at most 1,"
            + " was 1.5");
    assertThatThrownBy(() -> Loaders.yaml("tollgate:\n  priority:\n    classes: { batch: lots }\n"))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith("tollgate.priority.classes.batch ");
    assertThatThrownBy(() -> Loaders.yaml("tollgate:\n  priority:\n    default: urgent\n"))
        .isInstanceOf(ConfigException.class)
        .hasMessage("tollgate.priority.default must name one of the classes [critical, default,"
            + " batch], was urgent");
    assertThatThrownBy(() -> Loaders.yaml(
        "tollgate:\n  priority:\n    tenants: { acme: gold }\n"))
        .isInstanceOf(ConfigException.class)
        .hasMessage("tollgate.priority.tenants.acme must name one of the classes [critical,"
            + " default, batch], was gold");
    assertThatThrownBy(() -> Loaders.yaml("tollgate:\n  priority:\n    header: \"X Priority\"\n"))
        .isInstanceOf(ConfigException.class)
        .hasMessage("tollgate.priority.header must be an HTTP header name, was X Priority");
  }
}
