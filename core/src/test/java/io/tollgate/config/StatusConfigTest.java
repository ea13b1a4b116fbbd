package io.tollgate.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code tollgate.status}: where the page is served, and the token its data needs. */
class StatusConfigTest {

  private static final String TOKEN = "status-token-0123456789abcdef";

  @Test
  void servesNothingUntilAPortOrAPathIsSet() {
    StatusConfig status = Loaders.yaml("tollgate: {}").status();

    assertThat(status.port()).isEmpty();
    assertThat(status.path()).isEmpty();
    assertThat(status.bind()).isEqualTo("127.0.0.1");
    assertThat(status.token()).isEmpty();
  }

  @Test
  void readsEveryKey() {
    StatusConfig status = Loaders.yaml("""
        tollgate:
          status:
            port: 9464
            bind: 0.0.0.0
            token: ${TOLLGATE_STATUS_TOKEN}
            path: /tollgate/status
        """, Map.of("TOLLGATE_STATUS_TOKEN", TOKEN)).status();

    assertThat(status.port()).hasValue(9464);
    assertThat(status.bind()).isEqualTo("0.0.0.0");
    assertThat(status.bindsLoopback()).isFalse();
    assertThat(status.token()).hasValue(TOKEN);
    assertThat(status.path()).hasValue("/tollgate/status");
  }

  @Test
  void aPortBoundBeyondLoopbackWithoutATokenIsRefused() {
    assertThatThrownBy(() -> Loaders.yaml("""
        tollgate:
          status:
            port: 9464
            bind: 0.0.0.0
        """))
        .isInstanceOf(ConfigException.class)
        .hasMessage("tollgate.status.token is required when the status page is served beyond"
            + " loopback (bind 0.0.0.0); set it, e.g. token: ${TOLLGATE_STATUS_TOKEN}");
  }

  @Test
  void loopbackNeedsNoToken() {
    for (String loopback : new String[] {"127.0.0.1", "localhost", "::1"}) {
      assertThat(Loaders.yaml("tollgate:\n  status:\n    port: 9464\n    bind: \"" + loopback + "\"\n")
          .status().bindsLoopback()).as(loopback).isTrue();
    }
  }

  @Test
  void aShortTokenIsRefusedWithoutRepeatingIt() {
    assertThatThrownBy(() -> Loaders.yaml("tollgate:\n  status:\n    token: hunter2-secret\n"))
        .isInstanceOf(ConfigException.class)
        .hasMessage("tollgate.status.token must be at least 16 printable ASCII characters without"
            + " spaces, was one of 14")
        .message().doesNotContain("hunter2");
  }

  @Test
  void aPathMustBeAPlainPath() {
    assertThatThrownBy(() -> Loaders.yaml("tollgate:\n  status:\n    path: /tollgate/status/\n"))
        .isInstanceOf(ConfigException.class)
        .hasMessage("tollgate.status.path must be a path such as /tollgate/status (letters, digits,"
            + " . _ ~ - and /, not ending in /), was /tollgate/status/");
    assertThatThrownBy(() -> Loaders.yaml("tollgate:\n  status:\n    path: tollgate\n"))
        .hasMessageEndingWith("not ending in /), was tollgate");
    assertThatThrownBy(() -> Loaders.yaml("tollgate:\n  status:\n    path: /a/../b\n"))
        .hasMessageEndingWith("not ending in /), was /a/../b");
  }

  @Test
  void aPortMustBeOneThatExists() {
    assertThatThrownBy(() -> Loaders.yaml("tollgate:\n  status:\n    port: 70000\n"))
        .isInstanceOf(ConfigException.class)
        .hasMessage("tollgate.status.port must be from 1 to 65535 (0: any free port), was 70000");
    assertThatThrownBy(() -> Loaders.yaml("tollgate:\n  status:\n    port: -1\n"))
        .hasMessage("tollgate.status.port must be from 1 to 65535 (0: any free port), was -1");
  }

  @Test
  void theTokenIsNeverShown() {
    TollgateConfig config = Loaders.yaml("""
        tollgate:
          status:
            port: 0
            token: %s
        """.formatted(TOKEN));

    assertThat(config.status()).hasToString("{port=0, bind=127.0.0.1, token=***}");
    assertThat(config.toString()).doesNotContain(TOKEN);
  }
}
