package io.tollgate.gate;

import io.tollgate.llm.Headers;
import io.tollgate.router.OutboundRequest;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/** The simplest real front end: the JDK's HttpClient sending exactly what the gate plans. */
final class JdkTransport implements Transport<HttpResponse<InputStream>> {

  /** Headers the JDK client sets itself and refuses to be given. */
  private static final Set<String> RESTRICTED = Set.of("host", "content-length", "connection",
      "expect", "upgrade");

  private final HttpClient client = HttpClient.newBuilder()
      .version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(2))
      .build();
  private final Duration timeout;

  JdkTransport(Duration timeout) {
    this.timeout = timeout;
  }

  HttpRequest toJdk(OutboundRequest request) {
    HttpRequest.Builder builder = HttpRequest.newBuilder(request.uri()).timeout(timeout)
        .method(request.method(), request.bodyLength() == 0
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofByteArray(request.body()));
    for (Headers.Field field : request.headers().fields()) {
      if (!RESTRICTED.contains(field.name().toLowerCase())) {
        builder.header(field.name(), field.value());
      }
    }
    return builder.build();
  }

  @Override
  public HttpResponse<InputStream> send(OutboundRequest request) throws IOException {
    try {
      return client.send(toJdk(request), HttpResponse.BodyHandlers.ofInputStream());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted");
    }
  }

  /** The same client through {@code sendAsync}. */
  AsyncTransport<HttpResponse<InputStream>> async() {
    JdkTransport sync = this;
    return new AsyncTransport<>() {
      @Override
      public CompletableFuture<HttpResponse<InputStream>> send(OutboundRequest request) {
        return client.sendAsync(toJdk(request), HttpResponse.BodyHandlers.ofInputStream());
      }

      @Override
      public int status(HttpResponse<InputStream> response) {
        return sync.status(response);
      }

      @Override
      public Headers headers(HttpResponse<InputStream> response) {
        return sync.headers(response);
      }

      @Override
      public void discard(HttpResponse<InputStream> response) {
        sync.discard(response);
      }
    };
  }

  @Override
  public int status(HttpResponse<InputStream> response) {
    return response.statusCode();
  }

  @Override
  public Headers headers(HttpResponse<InputStream> response) {
    return Headers.of(response.headers().map());
  }

  @Override
  public void discard(HttpResponse<InputStream> response) {
    try (InputStream body = response.body()) {
      body.transferTo(OutputStreamSink.INSTANCE);
    } catch (IOException ignored) {
      // a failed attempt's body is of no interest
    }
  }

  private static final class OutputStreamSink extends java.io.OutputStream {
    static final OutputStreamSink INSTANCE = new OutputStreamSink();

    @Override
    public void write(int b) {}

    @Override
    public void write(byte[] b, int off, int len) {}
  }
}
