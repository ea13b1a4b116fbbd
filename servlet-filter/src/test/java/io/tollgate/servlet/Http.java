package io.tollgate.servlet;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.function.Supplier;

/** The JDK's HTTP client, as the tests' client. */
final class Http {

  static final HttpClient CLIENT = HttpClient.newBuilder()
      .version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(5))
      .build();

  private Http() {}

  static HttpRequest.Builder post(URI uri, String contentType, byte[] body) {
    return HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30))
        .header("Content-Type", contentType)
        .POST(HttpRequest.BodyPublishers.ofByteArray(body));
  }

  /** A body sent chunked: the JDK client sends no Content-Length for a stream. */
  static HttpRequest.Builder postChunked(URI uri, String contentType, Supplier<InputStream> body) {
    return HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30))
        .header("Content-Type", contentType)
        .POST(HttpRequest.BodyPublishers.ofInputStream(body));
  }

  static HttpRequest.Builder json(URI uri, String json) {
    return post(uri, "application/json", json.getBytes(StandardCharsets.UTF_8));
  }

  static HttpResponse<String> send(HttpRequest.Builder request) {
    try {
      return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  static HttpResponse<byte[]> sendForBytes(HttpRequest.Builder request) {
    try {
      return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  static HttpResponse<InputStream> sendForStream(HttpRequest.Builder request) {
    try {
      return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  static String header(HttpResponse<?> response, String name) {
    return response.headers().firstValue(name).orElse(null);
  }
}
