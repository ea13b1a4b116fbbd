package io.tollgate.agent.jdkhttp;

import io.tollgate.agent.instrumentation.JdkInstrumentationModule;
import io.tollgate.agent.instrumentation.TypeInstrumentation;
import java.util.List;

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

  /** The handles are found by name from the JDK's module, through the system class loader. */
  @Override
  public void checkBridge() {
    try {
      if (ClassLoader.getSystemClassLoader().loadClass(JdkHttpBridge.class.getName())
          != JdkHttpBridge.class) {
        throw new IllegalStateException("the system class loader does not resolve "
            + JdkHttpBridge.class.getName() + " to the agent's");
      }
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException("the JDK HttpClient bridge cannot be reached", e);
    }
  }
}
