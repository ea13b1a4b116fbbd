package io.tollgate.gate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class TenantsTest {

  @Test
  void aBindingLastsUntilItsScopeClosesAndRestoresTheOuterOne() {
    assertThat(Tenants.current()).isEmpty();
    try (Tenants.Scope outer = Tenants.bind("acme")) {
      try (Tenants.Scope inner = Tenants.bind("globex")) {
        assertThat(Tenants.current()).contains("globex");
      }
      assertThat(Tenants.current()).contains("acme");
    }
    assertThat(Tenants.current()).isEmpty();
  }

  @Test
  void propagatesToAnotherThread() throws Exception {
    AtomicReference<String> seen = new AtomicReference<>("none");
    Runnable task;
    try (Tenants.Scope scope = Tenants.bind("acme")) {
      task = Tenants.propagate(() -> seen.set(Tenants.current().orElse("none")));
    }
    CompletableFuture.runAsync(task).get();

    assertThat(seen.get()).isEqualTo("acme");
  }
}
