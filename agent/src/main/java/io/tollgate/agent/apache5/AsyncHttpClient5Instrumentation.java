package io.tollgate.agent.apache5;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import io.tollgate.agent.apache5.helpers.Async5Execution;
import io.tollgate.agent.instrumentation.TypeInstrumentation;
import java.util.List;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.implementation.bytecode.assign.Assigner;
import org.apache.hc.client5.http.impl.async.CloseableHttpAsyncClient;
import org.apache.hc.core5.concurrent.FutureCallback;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.http.nio.AsyncPushConsumer;
import org.apache.hc.core5.http.nio.AsyncRequestProducer;
import org.apache.hc.core5.http.nio.AsyncResponseConsumer;
import org.apache.hc.core5.http.nio.HandlerFactory;
import org.apache.hc.core5.http.protocol.HttpContext;

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
  public void transform(Advices advices) {
    advices.apply(named("doExecute").and(takesArguments(6)), getClass().getName() + "$DoExecuteAdvice");
  }

  /** Inlined around {@code doExecute}: skips it when the gate has taken the call. */
  public static final class DoExecuteAdvice {
    private DoExecuteAdvice() {}

    @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class, suppress = Throwable.class)
    @SuppressWarnings("rawtypes")
    public static Object enter(@Advice.This CloseableHttpAsyncClient client,
        @Advice.Argument(0) HttpHost target, @Advice.Argument(1) AsyncRequestProducer producer,
        @Advice.Argument(2) AsyncResponseConsumer consumer,
        @Advice.Argument(3) HandlerFactory<AsyncPushConsumer> push,
        @Advice.Argument(4) HttpContext context, @Advice.Argument(5) FutureCallback callback) {
      return Async5Execution.handle(client, target, producer, consumer, push, context, callback);
    }

    @Advice.OnMethodExit(suppress = Throwable.class)
    public static void exit(@Advice.Enter Object handled,
        @Advice.Return(readOnly = false, typing = Assigner.Typing.DYNAMIC) Object future) {
      if (handled != null) {
        future = handled;
      }
    }
  }
}
