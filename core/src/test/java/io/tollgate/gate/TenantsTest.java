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
  void aUserIsBoundWithItsTenantAndNeverLeaksIntoAnotherTenantsBinding() {
    try (Tenants.Scope bob = Tenants.bind("acme", "bob")) {
      assertThat(Tenants.current()).contains("acme");
      assertThat(Tenants.currentUser()).contains("bob");
      try (Tenants.Scope globex = Tenants.bind("globex")) {
        assertThat(Tenants.current()).contains("globex");
        assertThat(Tenants.currentUser()).isEmpty();
      }
      try (Tenants.Scope alone = Tenants.bind("acme", null)) {
        assertThat(Tenants.currentUser()).isEmpty();
      }
      assertThat(Tenants.currentUser()).contains("bob");
    }
    assertThat(Tenants.current()).isEmpty();
    assertThat(Tenants.currentUser()).isEmpty();
  }

  @Test
  void propagatesTheUserWithItsTenant() throws Exception {
    AtomicReference<String> seen = new AtomicReference<>("none");
    Runnable task;
    try (Tenants.Scope scope = Tenants.bind("acme", "bob")) {
      task = Tenants.propagate(() -> seen.set(Tenants.current().orElse("none") + "/"
          + Tenants.currentUser().orElse("none")));
    }
    CompletableFuture.runAsync(task).get();

    assertThat(seen.get()).isEqualTo("acme/bob");
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
