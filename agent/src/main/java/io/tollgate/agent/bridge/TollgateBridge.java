package io.tollgate.agent.bridge;

import java.util.function.BooleanSupplier;

/**
 * What the agent shares with the Tollgate code an app carries itself (the servlet filter or the
 * Spring starter, each with its own copy of the core): JDK types only, so that the two copies,
 * which never see each other's classes (the agent's core is relocated), can still talk.
 *
 * <p>{@code -javaagent} puts the agent jar on the system class path; app-side code finds this class
 * by name through the system class loader ({@code io.tollgate.gate.AttachedAgent}), whatever its
 * own class loader (a WAR's, Spring Boot's fat-jar loader). This class is never relocated.
 */
public final class TollgateBridge {

  /**
   * The tenant bound to the current thread, one for every copy of the core in the JVM: a tenant
   * the app's filter binds is the one the agent charges for the calls that request makes.
   */
  public static final ThreadLocal<String> TENANT = new ThreadLocal<>();

  /**
   * Whether the agent's gate is running (false when a bad configuration or {@code mode: off}
   * disabled it). While the agent starts, asking waits for the start to decide, as a call would.
   */
  public static volatile BooleanSupplier agentGating = () -> false;

  private TollgateBridge() {}
}
