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
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.matcher.ElementMatcher;
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
  void advisesSendAndBothSendAsyncEachWithItsOwnAdvice() throws Exception {
    List<ElementMatcher<? super MethodDescription>> matchers = new ArrayList<>();
    List<String> advices = new ArrayList<>();
    instrumentation.transform((methods, advice) -> {
      matchers.add(methods);
      advices.add(advice.substring(advice.indexOf('$') + 1));
    });
    Class<?> facade = HttpClient.newHttpClient().getClass();
    Map<String, String> advised = new TreeMap<>();
    for (Method method : facade.getDeclaredMethods()) {
      MethodDescription description = new MethodDescription.ForLoadedMethod(method);
      for (int i = 0; i < matchers.size(); i++) {
        if (matchers.get(i).matches(description)) {
          advised.put(method.getName() + "/" + method.getParameterCount(), advices.get(i));
        }
      }
    }

    assertThat(advised).containsExactlyEntriesOf(new TreeMap<>(Map.of(
        "send/2", "SendAdvice",
        "sendAsync/2", "SendAsyncAdvice",
        "sendAsync/3", "SendAsyncWithPushPromisesAdvice")));
    assertThat(Arrays.stream(facade.getDeclaredMethods())
        .filter(m -> m.getName().startsWith("send") && Modifier.isPublic(m.getModifiers())))
        .as("every public send method of the facade").hasSize(3);
  }
}
