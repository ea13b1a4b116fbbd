package io.tollgate.agent.it.app;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/** {@link LargeBodyApp} on the JDK's client: {@code BodyPublishers.ofInputStream}, length -1. */
public final class LargeBodyJdk implements LargeBodyApp.Sender {

  @Override
  public LargeBodyApp.Answer send(String url, long size, String key) throws Exception {
    HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    HttpRequest request = HttpRequest.newBuilder(URI.create(url))
        .header("Authorization", "Bearer " + key)
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new GeneratedChat(size)))
        .build();
    HttpResponse<byte[]> response = client.send(request, HttpResponse.BodyHandlers.ofByteArray());
    return new LargeBodyApp.Answer(response.statusCode(),
        response.headers().firstValue("Retry-After").orElse(null),
        response.headers().firstValue("Content-Type").orElse(null), response.body());
  }
}
