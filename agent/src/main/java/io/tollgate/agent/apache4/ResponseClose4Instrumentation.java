package io.tollgate.agent.apache4;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import io.tollgate.agent.instrumentation.TypeInstrumentation;
import io.tollgate.agent.instrumentation.TypeTransformer;
import java.util.List;
import io.tollgate.agent.apache4.helpers.Classic4Execution;
import net.bytebuddy.asm.Advice;

/**
 * {@code close()} of the response HttpClient 4.5's clients return ({@code HttpResponseProxy}, of
 * {@code HttpClientBuilder}'s clients and {@code createMinimal()}): it releases the connection
 * without touching the entity, so a provider's answer closed unread would leave its reservation
 * open. The {@code DefaultHttpClient} family's response consumes its entity on close: no hook.
 */
public final class ResponseClose4Instrumentation implements TypeInstrumentation {

  @Override
  public List<String> typeNames() {
    return List.of("org.apache.http.impl.execchain.HttpResponseProxy");
  }

  @Override
  public void transform(TypeTransformer transformer) {
    transformer.applyAdviceToMethod(named("close").and(takesArguments(0)),
        getClass().getName() + "$CloseAdvice");
  }

  /** At the start of {@code close()}. */
  public static final class CloseAdvice {
    private CloseAdvice() {}

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter(@Advice.This Object response) {
      Classic4Execution.closing(response);
    }
  }
}
