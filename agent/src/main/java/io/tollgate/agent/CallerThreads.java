package io.tollgate.agent;

/**
 * Marks the threads that run an app's synchronous call ({@code Call.execute()}): only there may a
 * call wait for room ({@code on-limit: wait}). Everywhere else (OkHttp's dispatcher, an I/O thread)
 * a limited call is answered at once. The hooks of the client's synchronous entry point call
 * {@link #enter()} and {@link #exit()}.
 */
public final class CallerThreads {

  private static final ThreadLocal<int[]> DEPTH = ThreadLocal.withInitial(() -> new int[1]);

  private CallerThreads() {}

  public static void enter() {
    DEPTH.get()[0]++;
  }

  public static void exit() {
    int[] depth = DEPTH.get();
    if (depth[0] > 0) {
      depth[0]--;
    }
  }

  /** True inside a synchronous call made by the app on this thread. */
  public static boolean mayWait() {
    return DEPTH.get()[0] > 0;
  }
}
