package io.tollgate.agent.okhttp;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import io.tollgate.agent.CallerThreads;
import io.tollgate.agent.EnqueuedTenants;
import io.tollgate.agent.instrumentation.TypeInstrumentation;
import io.tollgate.agent.instrumentation.TypeTransformer;
import java.util.List;
import net.bytebuddy.asm.Advice;

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
  public void transform(TypeTransformer transformer) {
    transformer.applyAdviceToMethod(named("execute").and(takesArguments(0)),
        getClass().getName() + "$ExecuteAdvice");
    transformer.applyAdviceToMethod(named("enqueue").and(takesArguments(1)),
        getClass().getName() + "$EnqueueAdvice");
  }

  /** Around {@code RealCall.execute()}. */
  public static final class ExecuteAdvice {
    private ExecuteAdvice() {}

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter() {
      CallerThreads.enter();
    }

    @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
    public static void exit() {
      CallerThreads.exit();
    }
  }

  /** At the start of {@code RealCall.enqueue(Callback)}, on the app's thread. */
  public static final class EnqueueAdvice {
    private EnqueueAdvice() {}

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter(@Advice.This Object call) {
      EnqueuedTenants.remember(call);
    }
  }
}
