package io.tollgate.spring.boot.app;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.client.reactive.JdkClientHttpConnector;
import org.springframework.web.client.RestClient;
import org.springframework.web.reactive.function.client.WebClient;

/**
 * The app of {@code AgentAttachedIT}, run in a JVM of its own with the Tollgate agent attached:
 * calls providers through the clients Boot hands out and through a JDK {@code HttpClient} of its
 * own, and prints each client's statuses, one line per client ({@code jdk=200,200,429}).
 * Arguments: the base URLs of the providers {@code openai} (known to the agent too), {@code plain}
 * and {@code reactive}.
 */
@EnableAutoConfiguration
public class AgentAttachedApp {

  private static final String BODY = "{\"model\":\"gpt-4o\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";

  public static void main(String[] args) throws Exception {
    String openai = args[0];
    String plain = args[1];
    String reactive = args[2];
    // Boot's RestClient.Builder on the JDK HttpClient, its WebClient.Builder on Reactor Netty: the
    // starter gates both; the agent lets the starter's attempts pass
    try (ConfigurableApplicationContext context = start("jdk", openai, plain, reactive)) {
      System.out.println("jdk=" + restCalls(context, openai, 3));
      System.out.println("reactor=" + webCalls(context.getBean(WebClient.Builder.class), reactive, 3));
    }
    // the app's own JDK HttpClient: the agent's alone
    System.out.println("raw=" + rawCalls(openai, 2));
    // Boot's RestClient.Builder on HttpURLConnection, and a WebClient from Boot's builder given a
    // JDK connector of the app's own: the starter's, whatever the transport
    try (ConfigurableApplicationContext context = start("simple", openai, plain, reactive)) {
      System.out.println("simple=" + restCalls(context, plain, 3));
      System.out.println("webjdk=" + webCalls(context.getBean(WebClient.Builder.class)
          .clientConnector(new JdkClientHttpConnector()), openai, 3));
    }
  }

  private static ConfigurableApplicationContext start(String factory, String openai, String plain, String reactive) {
    return new SpringApplicationBuilder(AgentAttachedApp.class)
        .web(WebApplicationType.NONE)
        .properties("spring.http.client.factory=" + factory,
            "tollgate.providers.openai.base-url=" + openai,
            "tollgate.providers.openai.limits.requests-per-hour=2",
            "tollgate.providers.plain.base-url=" + plain,
            "tollgate.providers.plain.limits.requests-per-hour=2",
            "tollgate.providers.reactive.base-url=" + reactive,
            "tollgate.providers.reactive.limits.requests-per-hour=2")
        .run();
  }

  private static String restCalls(ConfigurableApplicationContext context, String baseUrl, int calls) {
    RestClient client = context.getBean(RestClient.Builder.class).baseUrl(baseUrl).build();
    List<String> statuses = new ArrayList<>();
    for (int i = 0; i < calls; i++) {
      Integer status = client.post().uri("/v1/chat/completions")
          .header("Authorization", "Bearer sk-app").header("Content-Type", "application/json").body(BODY)
          .exchange((request, response) -> response.getStatusCode().value());
      statuses.add(String.valueOf(status));
    }
    return String.join(",", statuses);
  }

  private static String webCalls(WebClient.Builder builder, String baseUrl, int calls) {
    WebClient client = builder.baseUrl(baseUrl).build();
    List<String> statuses = new ArrayList<>();
    for (int i = 0; i < calls; i++) {
      Integer status = client.post().uri("/v1/chat/completions")
          .header("Authorization", "Bearer sk-app").header("Content-Type", "application/json").bodyValue(BODY)
          .exchangeToMono(response -> response.releaseBody().thenReturn(response.statusCode().value()))
          .block();
      statuses.add(String.valueOf(status));
    }
    return String.join(",", statuses);
  }

  private static String rawCalls(String baseUrl, int calls) throws Exception {
    HttpClient client = HttpClient.newHttpClient();
    List<String> statuses = new ArrayList<>();
    for (int i = 0; i < calls; i++) {
      HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create(baseUrl + "/v1/chat/completions"))
          .header("Authorization", "Bearer sk-app").header("Content-Type", "application/json")
          .POST(HttpRequest.BodyPublishers.ofString(BODY)).build(), HttpResponse.BodyHandlers.ofString());
      statuses.add(String.valueOf(response.statusCode()));
    }
    return String.join(",", statuses);
  }
}
