package io.tollgate.agent.instrumentation;

import java.util.ArrayList;
import java.util.List;

/**
 * The hooks {@link HookWeaverTest} weaves in. Public, as the clients' hooks are: the woven classes
 * are defined by a loader of their own, so in another runtime package.
 */
public final class WovenHooks {

  /** What the hooks saw, in order; the fixtures' own steps are written here too. */
  public static final List<String> SEEN = new ArrayList<>();
  /** What {@link #answer} answers. */
  public static Object nextAnswer;

  public static Object answer(Object target, Object first, Object second) {
    SEEN.add("answer " + first + " " + second);
    if (nextAnswer instanceof Error error) {
      throw error;
    }
    return nextAnswer;
  }

  public static void enter(Object value) {
    SEEN.add("enter " + value);
  }

  public static void enterWithNothing() {
    SEEN.add("enter");
  }

  public static void failingEnter(Object value) {
    throw new IllegalStateException("hook failed on " + value);
  }

  public static void returning(Object value) {
    SEEN.add("return " + value);
  }

  public static void exit() {
    SEEN.add("exit");
  }

  private WovenHooks() {}
}
