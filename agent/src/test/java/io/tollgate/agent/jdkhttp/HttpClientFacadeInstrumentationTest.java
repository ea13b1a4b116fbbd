package io.tollgate.agent.jdkhttp;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpClient;
import org.junit.jupiter.api.Test;

/**
 * The advice sits on the client the app holds, outside the implementation the OpenTelemetry Java
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
}
