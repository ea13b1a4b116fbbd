package io.tollgate.agent.jdkhttp;

import io.tollgate.agent.instrumentation.JdkInstrumentationModule;
import io.tollgate.agent.instrumentation.TypeInstrumentation;
import java.lang.invoke.MethodHandle;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.List;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.utility.JavaConstant;

/**
 * {@code java.net.http.HttpClient}: {@code send} and {@code sendAsync} of every client, the hooks
 * reaching the agent through {@link JdkHttpBridge}.
 */
public final class JdkHttpInstrumentationModule implements JdkInstrumentationModule {

  @Override
  public String name() {
    return "jdk-httpclient";
  }

  @Override
  public List<TypeInstrumentation> typeInstrumentations() {
    return List.of(new HttpClientFacadeInstrumentation());
  }

  /**
   * Binds each handle annotation to a dynamic constant ({@code CONSTANT_Dynamic}, resolved once,
   * on first use, by {@code java.lang.invoke.ConstantBootstraps.invoke}) computed with JDK methods
   * only: {@code ClassLoader.getSystemClassLoader().loadClass(bridge).getField(name).get(null)}.
   * The JDK's class thus holds the agent's method handle without naming an agent class or reading
   * the agent's module (reflection does not need readability).
   */
  @Override
  public Advice.WithCustomMapping adviceMapping() {
    try {
      if (ClassLoader.getSystemClassLoader().loadClass(JdkHttpBridge.class.getName())
          != JdkHttpBridge.class) {
        throw new IllegalStateException("the system class loader does not resolve "
            + JdkHttpBridge.class.getName() + " to the agent's");
      }
      return Advice.withCustomMapping()
          .bind(HttpClientFacadeInstrumentation.SendHandle.class, handle("SEND"))
          .bind(HttpClientFacadeInstrumentation.SendAsyncHandle.class, handle("SEND_ASYNC"))
          .bind(HttpClientFacadeInstrumentation.SendAsyncWithPushPromisesHandle.class,
              handle("SEND_ASYNC_WITH_PUSH_PROMISES"));
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("the JDK HttpClient bridge cannot be reached", e);
    }
  }

  private static JavaConstant handle(String field) throws NoSuchMethodException {
    Method systemLoader = ClassLoader.class.getMethod("getSystemClassLoader");
    Method loadClass = ClassLoader.class.getMethod("loadClass", String.class);
    Method getField = Class.class.getMethod("getField", String.class);
    Method get = Field.class.getMethod("get", Object.class);
    JavaConstant loader = JavaConstant.Dynamic.ofInvocation(systemLoader);
    JavaConstant bridge = JavaConstant.Dynamic.ofInvocation(loadClass, loader,
        JdkHttpBridge.class.getName());
    JavaConstant handleField = JavaConstant.Dynamic.ofInvocation(getField, bridge, field);
    return JavaConstant.Dynamic.ofInvocation(get, handleField, JavaConstant.Dynamic.ofNullConstant())
        .withType(MethodHandle.class);
  }
}
