package io.tollgate.agent;

import io.tollgate.overrides.AdminCommand;

/**
 * {@code java -jar tollgate-agent.jar ...}: the operator's command over the fleet's live overrides
 * (docs/operations.md, "Live overrides"), run by the agent's own copy of the core.
 */
public final class AdminMain {

  private AdminMain() {}

  public static void main(String[] args) {
    AdminCommand.main(args);
  }
}
