package io.tollgate.agent.apache5;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import io.tollgate.agent.instrumentation.AnswerExit;
import io.tollgate.agent.instrumentation.TypeInstrumentation;
import io.tollgate.agent.instrumentation.TypeTransformer;
import java.util.List;
import io.tollgate.agent.apache5.helpers.Classic5Execution;
import net.bytebuddy.asm.Advice;

/**
 * {@code doExecute(HttpHost, ClassicHttpRequest, HttpContext)} of the classic clients, where every
 * {@code execute} overload (with or without a response handler) arrives: a call to a provider runs
 * through the gate in place of the original body, which is skipped.
 */
public final class ClassicHttpClient5Instrumentation implements TypeInstrumentation {

  @Override
  public List<String> typeNames() {
    return List.of("org.apache.hc.client5.http.impl.classic.InternalHttpClient",
        "org.apache.hc.client5.http.impl.classic.MinimalHttpClient");
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
      return Classic5Execution.handle(self, target, request, context);
    }
  }
}
