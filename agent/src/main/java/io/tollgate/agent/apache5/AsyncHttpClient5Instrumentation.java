package io.tollgate.agent.apache5;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import io.tollgate.agent.instrumentation.AnswerExit;
import io.tollgate.agent.instrumentation.TypeInstrumentation;
import io.tollgate.agent.instrumentation.TypeTransformer;
import java.util.List;
import io.tollgate.agent.apache5.helpers.Async5Execution;
import net.bytebuddy.asm.Advice;

/**
 * {@code doExecute(HttpHost, AsyncRequestProducer, AsyncResponseConsumer, HandlerFactory,
 * HttpContext, FutureCallback)} of the async clients (those of {@code HttpAsyncClients}' builders,
 * HTTP/1.1 and HTTP/2, and the minimal ones), where every {@code execute} overload arrives: a call
 * to a provider runs through the gate's asynchronous path in place of the original body, which is
 * skipped, and the method returns the gate's future.
 */
public final class AsyncHttpClient5Instrumentation implements TypeInstrumentation {

  @Override
  public List<String> typeNames() {
    return List.of("org.apache.hc.client5.http.impl.async.InternalAbstractHttpAsyncClient",
        "org.apache.hc.client5.http.impl.async.AbstractMinimalHttpAsyncClientBase");
  }

  @Override
  public void transform(TypeTransformer transformer) {
    transformer.applyAnswerAdvice(named("doExecute").and(takesArguments(6)),
        getClass().getName() + "$AnswerEnter");
  }

  /** At the start of {@code doExecute}: the helper's answer ({@link AnswerExit}). */
  public static final class AnswerEnter {
    private AnswerEnter() {}

    @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class, suppress = Throwable.class)
    public static Object enter(@Advice.This Object self,
        @Advice.Argument(0) Object target,
        @Advice.Argument(1) Object producer,
        @Advice.Argument(2) Object consumer,
        @Advice.Argument(3) Object push,
        @Advice.Argument(4) Object context,
        @Advice.Argument(5) Object callback) {
      return Async5Execution.handle(self, target, producer, consumer, push, context, callback);
    }
  }
}
