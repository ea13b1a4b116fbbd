package io.tollgate.agent.jdkhttp;

import static net.bytebuddy.matcher.ElementMatchers.isPublic;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import io.tollgate.agent.instrumentation.TypeInstrumentation;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.lang.invoke.MethodHandle;
import java.util.List;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.implementation.bytecode.assign.Assigner;

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
 * the agent, only the method handles bound to {@link SendHandle} and {@link SendAsyncHandle}
 * ({@link JdkHttpBridge}).
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

  @Override
  public List<String> typeNames() {
    return List.of(TYPE);
  }

  @Override
  public void transform(Advices advices) {
    advices.apply(named("send").and(takesArguments(2)), getClass().getName() + "$SendAdvice");
    advices.apply(named("sendAsync").and(takesArguments(2)).and(isPublic()),
        getClass().getName() + "$SendAsyncAdvice");
    advices.apply(named("sendAsync").and(takesArguments(3)).and(isPublic()),
        getClass().getName() + "$SendAsyncWithPushPromisesAdvice");
  }

  /**
   * Around {@code send}: when the bridge answers, the method body is skipped and the answer is
   * returned (or thrown) in its place.
   */
  public static final class SendAdvice {
    private SendAdvice() {}

    @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class, suppress = Throwable.class)
    public static Object enter(@SendHandle MethodHandle bridge, @Advice.This Object client,
        @Advice.Argument(0) Object request, @Advice.Argument(1) Object handler) throws Throwable {
      return (Object) bridge.invokeExact(client, request, handler);
    }

    @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
    public static void exit(@Advice.Enter Object answer,
        @Advice.Return(readOnly = false, typing = Assigner.Typing.DYNAMIC) Object returned,
        @Advice.Thrown(readOnly = false, typing = Assigner.Typing.DYNAMIC) Throwable thrown) {
      if (answer instanceof Throwable) {
        thrown = (Throwable) answer;
      } else if (answer != null) {
        returned = answer;
      }
    }
  }

  /** Around the two-argument {@code sendAsync}: the bridge's future replaces the client's. */
  public static final class SendAsyncAdvice {
    private SendAsyncAdvice() {}

    @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class, suppress = Throwable.class)
    public static Object enter(@SendAsyncHandle MethodHandle bridge, @Advice.This Object client,
        @Advice.Argument(0) Object request, @Advice.Argument(1) Object handler) throws Throwable {
      return (Object) bridge.invokeExact(client, request, handler, (Object) null);
    }

    @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
    public static void exit(@Advice.Enter Object answer,
        @Advice.Return(readOnly = false, typing = Assigner.Typing.DYNAMIC) Object returned) {
      if (answer != null) {
        returned = answer;
      }
    }
  }

  /** Around the three-argument {@code sendAsync}: the bridge's future replaces the client's. */
  public static final class SendAsyncWithPushPromisesAdvice {
    private SendAsyncWithPushPromisesAdvice() {}

    @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class, suppress = Throwable.class)
    public static Object enter(@SendAsyncHandle MethodHandle bridge, @Advice.This Object client,
        @Advice.Argument(0) Object request, @Advice.Argument(1) Object handler,
        @Advice.Argument(2) Object pushPromiseHandler) throws Throwable {
      return (Object) bridge.invokeExact(client, request, handler, pushPromiseHandler);
    }

    @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
    public static void exit(@Advice.Enter Object answer,
        @Advice.Return(readOnly = false, typing = Assigner.Typing.DYNAMIC) Object returned) {
      if (answer != null) {
        returned = answer;
      }
    }
  }
}
