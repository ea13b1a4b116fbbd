package io.tollgate.agent.jdkhttp;

import io.tollgate.agent.InternalFailures;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/**
 * What the advice inlined into the JDK's {@code HttpClientFacade} calls. That class, in the platform
 * loader and the {@code java.net.http} module, cannot name any class of the agent jar; it gets
 * {@link #SEND}, {@link #SEND_ASYNC} and {@link #SEND_ASYNC_WITH_PUSH_PROMISES} as dynamic constants of
 * its own constant pool instead (see {@link JdkHttpInstrumentationModule#adviceMapping()}): method
 * handles typed with {@code Object}
 * only, invoked with {@code invokeExact}. So nothing of Tollgate's is added to the JDK's loaders,
 * the boot class path or its modules.
 *
 * <p>The answer of both: {@code null} lets the client's own method run unchanged; a
 * {@code Throwable} is thrown to the app in its place; anything else is returned to the app in its
 * place (an {@code HttpResponse}, a {@code CompletableFuture}). Nothing escapes them: a failure of
 * Tollgate's is counted and the call proceeds unchanged.
 *
 * <p>Public, with public fields: the constants are resolved by reflection from the JDK's module.
 */
public final class JdkHttpBridge {

  /** {@code (Object client, Object request, Object handler) -> Object}, for {@code send}. */
  public static final MethodHandle SEND;
  /** {@code (client, request, handler) -> Object}, for {@code sendAsync}. */
  public static final MethodHandle SEND_ASYNC;
  /** {@code (client, request, handler, pushPromiseHandler) -> Object}, for {@code sendAsync}. */
  public static final MethodHandle SEND_ASYNC_WITH_PUSH_PROMISES;

  static {
    MethodHandles.Lookup lookup = MethodHandles.lookup();
    try {
      SEND = lookup.findStatic(JdkHttpBridge.class, "send", MethodType.methodType(Object.class,
          Object.class, Object.class, Object.class));
      SEND_ASYNC_WITH_PUSH_PROMISES = lookup.findStatic(JdkHttpBridge.class, "sendAsync",
          MethodType.methodType(Object.class, Object.class, Object.class, Object.class,
              Object.class));
      SEND_ASYNC = MethodHandles.insertArguments(SEND_ASYNC_WITH_PUSH_PROMISES, 3, (Object) null);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private static final JdkHttpHook HOOK = new JdkHttpHook();

  private JdkHttpBridge() {}

  private static Object send(Object client, Object request, Object handler) {
    try {
      return HOOK.onSend((HttpClient) client, (HttpRequest) request,
          (HttpResponse.BodyHandler<?>) handler);
    } catch (Throwable e) {
      InternalFailures.record(JdkHttpHook.WHERE, e);
      return null;
    }
  }

  private static Object sendAsync(Object client, Object request, Object handler,
      Object pushPromiseHandler) {
    try {
      return HOOK.onSendAsync((HttpClient) client, (HttpRequest) request,
          (HttpResponse.BodyHandler<?>) handler,
          (HttpResponse.PushPromiseHandler<?>) pushPromiseHandler);
    } catch (Throwable e) {
      InternalFailures.record(JdkHttpHook.WHERE, e);
      return null;
    }
  }
}
