package io.tollgate.agent;

import io.tollgate.gate.Gate;

/** Installs a gate as the agent's for a test of helpers wired as the agent wires them. */
public final class InstalledGate implements AutoCloseable {

  private InstalledGate(Gate gate) {
    AgentGates.install(gate);
  }

  /** {@code gate} is the agent's until closed (the gate itself stays open: the test closes it). */
  public static InstalledGate of(Gate gate) {
    return new InstalledGate(gate);
  }

  @Override
  public void close() {
    AgentGates.install(null);
  }
}
