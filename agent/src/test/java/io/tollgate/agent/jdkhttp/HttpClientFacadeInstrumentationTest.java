package io.tollgate.agent.jdkhttp;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.http.HttpClient;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import io.tollgate.agent.instrumentation.Hook;
import io.tollgate.agent.instrumentation.MethodFilter;
import io.tollgate.agent.instrumentation.Passed;
import io.tollgate.agent.instrumentation.TypeInstrumentation;
import net.bytebuddy.jar.asm.Type;
import org.junit.jupiter.api.Test;

/**
 * The hook sits on the client the app holds, outside the implementation the OpenTelemetry Java
 * agent instruments, so the OpenTelemetry agent's client spans are made inside Tollgate's attempts
 * whichever agent attaches first.
 */
class HttpClientFacadeInstrumentationTest {

  private final HttpClientFacadeInstrumentation instrumentation = new HttpClientFacadeInstrumentation();

  @Test
  void matchesTheClientTheJdkHandsTheAppAndNotItsImplementation() throws Exception {
    Class<?> appsClient = HttpClient.newHttpClient().getClass();
    Class<?> implementation = Class.forName("jdk.internal.net.http.HttpClientImpl");

    assertThat(appsClient.getName()).isEqualTo("jdk.internal.net.http.HttpClientFacade");
    assertThat(instrumentation.typeNames()).containsExactly(appsClient.getName())
        .doesNotContain(implementation.getName());
  }

  @Test
  void hooksSendAndBothSendAsyncEachToItsOwnHandle() throws Exception {
    List<MethodFilter> filters = new ArrayList<>();
    List<String> hooks = new ArrayList<>();
    instrumentation.transform(new TypeInstrumentation.Hooks() {
      @Override
      public void answer(MethodFilter methods, Hook hook) {
        filters.add(methods);
        hooks.add(hook.toString());
      }

      @Override
      public void atEnter(MethodFilter methods, Passed passed, Hook hook) {
        throw new AssertionError("only answers");
      }

      @Override
      public void atReturn(MethodFilter methods, Passed passed, Hook hook) {
        throw new AssertionError("only answers");
      }

      @Override
      public void atExit(MethodFilter methods, Passed passed, Hook hook) {
        throw new AssertionError("only answers");
      }
    });
    Class<?> facade = HttpClient.newHttpClient().getClass();
    Map<String, String> hooked = new TreeMap<>();
    for (Method method : facade.getDeclaredMethods()) {
      for (int i = 0; i < filters.size(); i++) {
        if (filters.get(i).matches(method.getModifiers(), method.getName(),
            Type.getMethodDescriptor(method))) {
          hooked.put(method.getName() + "/" + method.getParameterCount(), hooks.get(i));
        }
      }
    }

    String bridge = JdkHttpBridge.class.getName() + ".";
    assertThat(hooked).containsExactlyEntriesOf(new TreeMap<>(Map.of(
        "send/2", bridge + "SEND",
        "sendAsync/2", bridge + "SEND_ASYNC",
        "sendAsync/3", bridge + "SEND_ASYNC_WITH_PUSH_PROMISES")));
    assertThat(Arrays.stream(facade.getDeclaredMethods())
        .filter(m -> m.getName().startsWith("send") && Modifier.isPublic(m.getModifiers())))
        .as("every public send method of the facade").hasSize(3);
  }
}
