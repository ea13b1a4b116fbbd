package io.tollgate.agent.okhttp;

import io.tollgate.agent.CallerThreads;
import io.tollgate.agent.EnqueuedTenants;
import io.tollgate.agent.instrumentation.Hook;
import io.tollgate.agent.instrumentation.MethodFilter;
import io.tollgate.agent.instrumentation.Passed;
import io.tollgate.agent.instrumentation.TypeInstrumentation;
import java.util.List;

/**
 * Marks the app's thread for the length of a synchronous {@code Call.execute()}: only there may a
 * limited call wait ({@code on-limit: wait}); calls run by {@code enqueue} on OkHttp's dispatcher
 * are answered at once. {@code enqueue} keeps the tenant bound on the app's thread for the
 * dispatcher thread that runs the call.
 */
public final class RealCallInstrumentation implements TypeInstrumentation {

  @Override
  public List<String> typeNames() {
    // 3.x, then 4.x and 5.x
    return List.of("okhttp3.RealCall", "okhttp3.internal.connection.RealCall");
  }

  @Override
  public void transform(Hooks hooks) {
    hooks.atEnter(MethodFilter.named("execute", 0), Passed.NOTHING,
        Hook.method(CallerThreads.class.getName(), "enter"));
    hooks.atExit(MethodFilter.named("execute", 0), Passed.NOTHING,
        Hook.method(CallerThreads.class.getName(), "exit"));
    hooks.atEnter(MethodFilter.named("enqueue", 1), Passed.THIS,
        Hook.method(EnqueuedTenants.class.getName(), "remember"));
  }
}
