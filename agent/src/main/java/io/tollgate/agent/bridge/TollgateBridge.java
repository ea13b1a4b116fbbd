package io.tollgate.agent.bridge;

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
   * The user inside {@link #TENANT} ({@code tenants.user-header}), bound with it: the agent charges
   * the calls of a request to that user's limits too.
   */
  public static final ThreadLocal<String> USER = new ThreadLocal<>();

  /**
   * Set on a thread while app-side Tollgate (the starter's client hooks) sends a call it has gated
   * itself: the agent's hooks let that call pass, so that no call is gated twice.
   */
  public static final ThreadLocal<Boolean> CALL_GATED = new ThreadLocal<>();

  private TollgateBridge() {}
}
