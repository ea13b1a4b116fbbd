package io.tollgate.agent.jdkhttp;

import static net.bytebuddy.matcher.ElementMatchers.isPublic;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import io.tollgate.agent.instrumentation.AnswerExit;
import io.tollgate.agent.instrumentation.TypeInstrumentation;
import io.tollgate.agent.instrumentation.TypeTransformer;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.lang.invoke.MethodHandle;
import java.util.List;
import net.bytebuddy.asm.Advice;

/**
 * {@code jdk.internal.net.http.HttpClientFacade}, the client every {@code HttpClient.newHttpClient()}
 * and {@code HttpClient.newBuilder().build()} hands the app (checked on JDK 17 and 25), which
 * delegates each call to its {@code HttpClientImpl}: its {@code send(HttpRequest, BodyHandler)} and
 * both public {@code sendAsync}, each of which goes straight to the implementation, so no call passes
 * two of these methods.
 *
 * <p>Why the facade and not the implementation: the OpenTelemetry Java agent instruments
 * {@code HttpClientImpl} (and leaves the facade alone), and suppresses a client span inside another
 * ({@code sendAsync} even by call depth on the thread). Gated at the facade, Tollgate's advice is
 * outside the OpenTelemetry agent's whichever agent attaches first, and each attempt, sent through
 * the facade again (passed through) into the implementation, gets its own client span under the
 * attempt's.
 *
 * <p>The advice is inlined into a class of the {@code java.net.http} module: it names no class of
 * the agent, only {@link JdkHttpBridge}'s method handles, bound to its annotations as dynamic
 * constants ({@link JdkHttpInstrumentationModule#adviceMapping()}). The bridge's answer is
 * returned, or thrown when it is a {@code Throwable}, in the method's place ({@link AnswerExit}).
 */
public final class HttpClientFacadeInstrumentation implements TypeInstrumentation {

  static final String TYPE = "jdk.internal.net.http.HttpClientFacade";

  /** {@link JdkHttpBridge#SEND}, as a constant of the instrumented class. */
  @Retention(RetentionPolicy.RUNTIME)
  @Target(ElementType.PARAMETER)
  public @interface SendHandle {}

  /** {@link JdkHttpBridge#SEND_ASYNC}, as a constant of the instrumented class. */
  @Retention(RetentionPolicy.RUNTIME)
  @Target(ElementType.PARAMETER)
  public @interface SendAsyncHandle {}

  /** {@link JdkHttpBridge#SEND_ASYNC_WITH_PUSH_PROMISES}, as a constant of the instrumented class. */
  @Retention(RetentionPolicy.RUNTIME)
  @Target(ElementType.PARAMETER)
  public @interface SendAsyncWithPushPromisesHandle {}

  @Override
  public List<String> typeNames() {
    return List.of(TYPE);
  }

  @Override
  public void transform(TypeTransformer transformer) {
    transformer.applyAnswerAdvice(named("send").and(takesArguments(2)),
        getClass().getName() + "$SendEnter");
    transformer.applyAnswerAdvice(named("sendAsync").and(takesArguments(2)).and(isPublic()),
        getClass().getName() + "$SendAsyncEnter");
    transformer.applyAnswerAdvice(named("sendAsync").and(takesArguments(3)).and(isPublic()),
        getClass().getName() + "$SendAsyncWithPushPromisesEnter");
  }

  /** At the start of {@code send}. */
  public static final class SendEnter {
    private SendEnter() {}

    @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class, suppress = Throwable.class)
    public static Object enter(@SendHandle MethodHandle bridge, @Advice.This Object client,
        @Advice.Argument(0) Object request, @Advice.Argument(1) Object handler) throws Throwable {
      return (Object) bridge.invokeExact(client, request, handler);
    }
  }

  /** At the start of the two-argument {@code sendAsync}. */
  public static final class SendAsyncEnter {
    private SendAsyncEnter() {}

    @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class, suppress = Throwable.class)
    public static Object enter(@SendAsyncHandle MethodHandle bridge, @Advice.This Object client,
        @Advice.Argument(0) Object request, @Advice.Argument(1) Object handler) throws Throwable {
      return (Object) bridge.invokeExact(client, request, handler);
    }
  }

  /** At the start of the three-argument {@code sendAsync}. */
  public static final class SendAsyncWithPushPromisesEnter {
    private SendAsyncWithPushPromisesEnter() {}

    @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class, suppress = Throwable.class)
    public static Object enter(@SendAsyncWithPushPromisesHandle MethodHandle bridge,
        @Advice.This Object client, @Advice.Argument(0) Object request,
        @Advice.Argument(1) Object handler, @Advice.Argument(2) Object pushPromises)
        throws Throwable {
      return (Object) bridge.invokeExact(client, request, handler, pushPromises);
    }
  }
}
