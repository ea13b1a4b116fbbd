package io.tollgate.samples.legacy;

import java.io.InputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** Chat calls through the JDK's {@code java.net.http.HttpClient.send}. */
final class JdkHttpChat implements ChatClient {

  private final HttpClient client;
  private final AppOptions options;

  JdkHttpChat(AppOptions options) {
    this.options = options;
    this.client = HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(10))
        .build();
  }

  @Override
  public String name() {
    return "jdk";
  }

  @Override
  public ChatReply send(ChatRequest request) throws Exception {
    HttpRequest call = HttpRequest.newBuilder(options.chatCompletions())
        .timeout(Duration.ofSeconds(30))
        .header("Content-Type", "application/json")
        .header("Authorization", "Bearer " + options.apiKey())
        .header(ChatRequest.ID_HEADER, request.id())
        .POST(HttpRequest.BodyPublishers.ofByteArray(request.body()))
        .build();
    HttpResponse<InputStream> response = client.send(call, HttpResponse.BodyHandlers.ofInputStream());
    try (InputStream body = response.body()) {
      return ChatReply.read(response.statusCode(), body, request.stream());
    }
  }
}
