package io.tollgate.agent.apache4;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import io.tollgate.agent.instrumentation.AnswerExit;
import io.tollgate.agent.instrumentation.TypeInstrumentation;
import io.tollgate.agent.instrumentation.TypeTransformer;
import java.util.List;
import io.tollgate.agent.apache4.helpers.OriginGuard4;
import net.bytebuddy.asm.Advice;

/**
 * {@code execute(HttpRequest, HttpClientConnection, HttpContext)} of HttpCore 4's
 * {@code HttpRequestExecutor}, through which every HttpClient 4.5 client writes each request, each
 * hop of a redirect included: a provider call's request to another origin is stripped of every
 * header that may not leave it (see {@code OriginGuard4}).
 */
public final class RequestExecutor4Instrumentation implements TypeInstrumentation {

  @Override
  public List<String> typeNames() {
    return List.of("org.apache.http.protocol.HttpRequestExecutor");
  }

  @Override
  public void transform(TypeTransformer transformer) {
    transformer.applyAnswerAdvice(named("execute").and(takesArguments(3)),
        getClass().getName() + "$AnswerEnter");
  }

  /** At the start of {@code execute}: the helper's answer ({@link AnswerExit}). */
  public static final class AnswerEnter {
    private AnswerEnter() {}

    @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class, suppress = Throwable.class)
    public static Object enter(@Advice.This Object self,
        @Advice.Argument(0) Object request,
        @Advice.Argument(1) Object connection,
        @Advice.Argument(2) Object context) {
      return OriginGuard4.beforeExecute(self, request, connection, context);
    }
  }
}
