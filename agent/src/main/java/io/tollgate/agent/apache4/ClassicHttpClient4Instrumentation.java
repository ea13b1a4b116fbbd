package io.tollgate.agent.apache4;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import io.tollgate.agent.apache4.helpers.Classic4Execution;
import io.tollgate.agent.instrumentation.TypeInstrumentation;
import java.util.List;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.implementation.bytecode.assign.Assigner;
import org.apache.http.HttpHost;
import org.apache.http.HttpRequest;
import org.apache.http.impl.client.CloseableHttpClient;
import org.apache.http.protocol.HttpContext;

/**
 * {@code doExecute(HttpHost, HttpRequest, HttpContext)} of HttpClient 4.5's clients (those of
 * {@code HttpClientBuilder}, {@code HttpClients.createMinimal()}, and the deprecated
 * {@code DefaultHttpClient} family), where every {@code execute} overload (with or without a
 * response handler) arrives: a call to a provider runs through the gate in place of the original
 * body, which is skipped.
 */
public final class ClassicHttpClient4Instrumentation implements TypeInstrumentation {

  @Override
  public List<String> typeNames() {
    return List.of("org.apache.http.impl.client.InternalHttpClient",
        "org.apache.http.impl.client.MinimalHttpClient",
        "org.apache.http.impl.client.AbstractHttpClient");
  }

  @Override
  public void transform(Advices advices) {
    advices.apply(named("doExecute").and(takesArguments(3)), getClass().getName() + "$DoExecuteAdvice");
  }

  /** Inlined around {@code doExecute}: skips it when the gate has handled the call. */
  public static final class DoExecuteAdvice {
    private DoExecuteAdvice() {}

    @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class, suppress = Throwable.class)
    public static Object enter(@Advice.This CloseableHttpClient client,
        @Advice.Argument(0) HttpHost target, @Advice.Argument(1) HttpRequest request,
        @Advice.Argument(2) HttpContext context) {
      return Classic4Execution.handle(client, target, request, context);
    }

    @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
    public static void exit(@Advice.Enter Object handled,
        @Advice.Return(readOnly = false, typing = Assigner.Typing.DYNAMIC) Object response,
        @Advice.Thrown(readOnly = false, typing = Assigner.Typing.DYNAMIC) Throwable thrown) {
      if (handled instanceof Throwable) {
        thrown = (Throwable) handled;
      } else if (handled != null) {
        response = handled;
      }
    }
  }
}
