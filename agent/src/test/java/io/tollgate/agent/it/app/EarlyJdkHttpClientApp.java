package io.tollgate.agent.it.app;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * {@link EarlyOkHttpApp} with the JDK's {@code HttpClient}: the client is built in the main
 * class's static initializer, before {@code main}, each call printed as {@link JdkHttpClientApp}
 * prints a {@code send}.
 *
 * <pre>
 * EarlyJdkHttpClientApp URL JSON TIMES
 * </pre>
 */
public final class EarlyJdkHttpClientApp {

  private static final HttpClient CLIENT = HttpClient.newBuilder()
      .version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(10))
      .build();

  private EarlyJdkHttpClientApp() {}

  public static void main(String[] args) throws Exception {
    System.out.println("app started");
    String key = System.getenv().getOrDefault("APP_KEY", "app-key");
    for (int i = 1; i <= Integer.parseInt(args[2]); i++) {
      HttpRequest request = HttpRequest.newBuilder(URI.create(args[0]))
          .timeout(Duration.ofSeconds(20))
          .header("Authorization", "Bearer " + key)
          .header("Content-Type", "application/json")
          .POST(HttpRequest.BodyPublishers.ofString(args[1]))
          .build();
      HttpResponse<byte[]> response = CLIENT.send(request, HttpResponse.BodyHandlers.ofByteArray());
      System.out.println("call " + i + " send " + JdkHttpClientApp.describe(i, response, response.body()));
    }
    System.out.println("app done");
  }
}
