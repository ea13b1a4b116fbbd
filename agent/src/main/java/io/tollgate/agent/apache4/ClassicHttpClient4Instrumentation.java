package io.tollgate.agent.apache4;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import io.tollgate.agent.instrumentation.AnswerExit;
import io.tollgate.agent.instrumentation.TypeInstrumentation;
import io.tollgate.agent.instrumentation.TypeTransformer;
import java.util.List;
import io.tollgate.agent.apache4.helpers.Classic4Execution;
import net.bytebuddy.asm.Advice;

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
  public void transform(TypeTransformer transformer) {
    transformer.applyAnswerAdvice(named("doExecute").and(takesArguments(3)),
        getClass().getName() + "$AnswerEnter");
  }

  /** At the start of {@code doExecute}: the helper's answer ({@link AnswerExit}). */
  public static final class AnswerEnter {
    private AnswerEnter() {}

    @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class, suppress = Throwable.class)
    public static Object enter(@Advice.This Object self,
        @Advice.Argument(0) Object target,
        @Advice.Argument(1) Object request,
        @Advice.Argument(2) Object context) {
      return Classic4Execution.handle(self, target, request, context);
    }
  }
}
