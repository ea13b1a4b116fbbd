package io.tollgate.agent;

import static io.tollgate.agent.HelperConfigs.config;
import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.agent.bridge.TollgateBridge;
import io.tollgate.config.TollgateConfig;
import io.tollgate.gate.AttachedAgent;
import io.tollgate.gate.Gate;
import io.tollgate.gate.Tenants;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class AgentGatesTest {

  private static final TollgateConfig WAITING = config("""
          tollgate:
            on-limit: wait
            max-wait: 3s
            providers:
              openai:
                base-url: https://api.openai.com
                api: openai
                limits:
                  requests-per-minute: 5
          """);

  @AfterEach
  void uninstall() {
    AgentGates.install(null);
  }

  @Test
  void everyThreadGetsTheOneGateAsConfigured() throws Exception {
    try (Gate gate = Gate.create(WAITING)) {
      AgentGates.install(gate);

      assertThat(AgentGates.gate()).isSameAs(gate);
      CallerThreads.enter();
      try {
        assertThat(AgentGates.gate()).isSameAs(gate);
      } finally {
        CallerThreads.exit();
      }
      Gate[] seen = new Gate[1];
      Thread other = new Thread(() -> seen[0] = AgentGates.gate());
      other.start();
      other.join();
      assertThat(seen[0]).isSameAs(gate);
    }
  }

  @Test
  void letsACallPassThatAppSideTollgateGatedItself() throws Exception {
    try (Gate gate = Gate.create(WAITING)) {
      AgentGates.install(gate);

      try (Tenants.Scope sending = AttachedAgent.sendingGatedCall()) {
        assertThat(TollgateBridge.CALL_GATED.get()).isTrue();
        assertThat(AgentGates.gate()).isNull();
        try (Tenants.Scope nested = AttachedAgent.sendingGatedCall()) {
          assertThat(AgentGates.gate()).isNull();
        }
        assertThat(AgentGates.gate()).as("an inner scope leaves the outer mark").isNull();
      }
      assertThat(TollgateBridge.CALL_GATED.get()).isNull();
      assertThat(AgentGates.gate()).isSameAs(gate);
    }
  }

  @Test
  void theTenantTheAppBindsIsTheBridges() {
    try (Tenants.Scope acme = Tenants.bind("acme")) {
      assertThat(TollgateBridge.TENANT.get()).isEqualTo("acme");
    }
    assertThat(TollgateBridge.TENANT.get()).isNull();
  }

  @Test
  void theUserTheAppBindsIsTheBridgesToo() {
    try (Tenants.Scope bob = Tenants.bind("acme", "bob")) {
      assertThat(TollgateBridge.TENANT.get()).isEqualTo("acme");
      assertThat(TollgateBridge.USER.get()).isEqualTo("bob");
    }
    assertThat(TollgateBridge.USER.get()).isNull();
  }

  @Test
  void isEmptyUntilInstalled() {
    assertThat(AgentGates.gate()).isNull();
  }

  @Test
  void aCallMadeWhileTheAgentStartsWaitsForTheGate() throws Exception {
    try (Gate gate = Gate.create(WAITING)) {
      AgentGates.starting(new Thread(() -> { }, "tollgate-start"));
      int waitedBefore = AgentGates.callsThatWaited();
      CompletableFuture<Gate> seen = callOnAnotherThread();
      Thread caller = awaitWaiting(seen);

      assertThat(seen).isNotDone();
      AgentGates.install(gate);

      assertThat(seen.get(10, TimeUnit.SECONDS)).isSameAs(gate);
      caller.join();
      assertThat(AgentGates.callsThatWaited()).isEqualTo(waitedBefore + 1);
      assertThat(AgentGates.gate()).as("after the start: no wait, no count").isSameAs(gate);
      assertThat(AgentGates.callsThatWaited()).isEqualTo(waitedBefore + 1);
    }
  }

  @Test
  void aCallMadeWhileTheAgentStartsGoesOnWithoutAGateWhenTheStartFails() throws Exception {
    AgentGates.starting(new Thread(() -> { }, "tollgate-start"));
    CompletableFuture<Gate> seen = callOnAnotherThread();
    awaitWaiting(seen);

    AgentGates.install(null);

    assertThat(seen.get(10, TimeUnit.SECONDS)).isNull();
  }

  @Test
  void theStartsOwnThreadNeverWaitsForItself() {
    AgentGates.starting(Thread.currentThread());
    int waitedBefore = AgentGates.callsThatWaited();

    assertThat(AgentGates.gate()).as("not decided yet: no gate, and no wait").isNull();
    assertThat(AgentGates.callsThatWaited()).isEqualTo(waitedBefore);
  }

  private final List<Thread> callers = new ArrayList<>();

  private CompletableFuture<Gate> callOnAnotherThread() {
    CompletableFuture<Gate> seen = new CompletableFuture<>();
    Thread caller = new Thread(() -> seen.complete(AgentGates.gate()), "app-calling-a-provider");
    caller.setDaemon(true);
    caller.start();
    callers.add(caller);
    return seen;
  }

  /** Until the calling thread is parked in the start's wait (a state, not a time). */
  private Thread awaitWaiting(CompletableFuture<Gate> seen) {
    Thread caller = callers.get(callers.size() - 1);
    while (!seen.isDone() && !(caller.getState() == Thread.State.TIMED_WAITING
        && Arrays.stream(caller.getStackTrace()).anyMatch(frame -> frame.getMethodName().equals("awaitStart")))) {
      Thread.onSpinWait();
    }
    return caller;
  }
}
