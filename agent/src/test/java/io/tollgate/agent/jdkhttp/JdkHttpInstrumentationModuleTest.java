package io.tollgate.agent.jdkhttp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.net.http.HttpClient;
import org.junit.jupiter.api.Test;

class JdkHttpInstrumentationModuleTest {

  /** The chain of the dynamic constants, followed by reflection as the JDK's class follows it. */
  @Test
  void theBridgeIsReachableFromTheJdkWithJdkTypesOnly() throws Throwable {
    Object send = ClassLoader.getSystemClassLoader().loadClass(JdkHttpBridge.class.getName())
        .getField("SEND").get(null);
    Object sendAsync = ClassLoader.getSystemClassLoader().loadClass(JdkHttpBridge.class.getName())
        .getField("SEND_ASYNC").get(null);
    Object sendAsyncWithPushPromises = ClassLoader.getSystemClassLoader()
        .loadClass(JdkHttpBridge.class.getName()).getField("SEND_ASYNC_WITH_PUSH_PROMISES").get(null);

    assertThat(((MethodHandle) send).type()).isEqualTo(MethodType.genericMethodType(3));
    assertThat(((MethodHandle) sendAsync).type()).isEqualTo(MethodType.genericMethodType(3));
    assertThat(((MethodHandle) sendAsyncWithPushPromises).type())
        .isEqualTo(MethodType.genericMethodType(4));
    assertThatCode(new JdkHttpInstrumentationModule()::adviceMapping).doesNotThrowAnyException();
  }

  @Test
  void theBridgeLetsEveryCallProceedWhileTheAgentIsNotRunning() throws Throwable {
    MethodHandle send = JdkHttpBridge.SEND;
    Object answer = (Object) send.invokeExact((Object) HttpClient.newHttpClient(),
        (Object) java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:1/")).build(),
        (Object) java.net.http.HttpResponse.BodyHandlers.discarding());
    assertThat(answer).isNull();
  }

  @Test
  void hasNoHelpers() {
    assertThat(new JdkHttpInstrumentationModule().helperClassNames()).isEmpty();
  }
}
