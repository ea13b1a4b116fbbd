package io.tollgate.status.browser;

import io.tollgate.gate.CallResult;
import io.tollgate.gate.Gate;
import io.tollgate.gate.Tenants;
import io.tollgate.gate.Transport;
import io.tollgate.llm.Headers;
import io.tollgate.router.OutboundRequest;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Set;

/**
 * Chat calls through a gate, sent by the JDK's HttpClient: the simplest real front end, built on
 * the gate's public API only (the core's own test helpers are not published to other modules).
 */
final class Calls implements Transport<HttpResponse<InputStream>> {

  private static final String CHAT = "{\"model\":\"gpt-4o\",\"max_tokens\":50,"
      + "\"messages\":[{\"role\":\"user\",\"content\":\"Say hello\"}]}";
  /** Headers the JDK client sets itself and refuses to be given. */
  private static final Set<String> RESTRICTED = Set.of("host", "content-length", "connection",
      "expect", "upgrade");

  private final Gate gate;
  private final HttpClient client = HttpClient.newBuilder()
      .version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(2))
      .build();

  Calls(Gate gate) {
    this.gate = gate;
  }

  /** One chat call to {@code baseUrl} with no tenant bound; its status. */
  int call(String baseUrl) throws IOException {
    CallResult<HttpResponse<InputStream>> result = gate.call(OutboundRequest.of("POST",
        URI.create(baseUrl + "/v1/chat/completions"),
        Headers.of("Authorization", "Bearer sk-app", "Content-Type", "application/json"),
        CHAT.getBytes(StandardCharsets.UTF_8)), true, this);
    if (result instanceof CallResult.Forwarded<HttpResponse<InputStream>> forwarded) {
      // read through the usage observer, as an app's client would, so the call settles
      try (InputStream body = forwarded.usage().wrap(forwarded.response().body())) {
        body.readAllBytes();
      }
      return forwarded.response().statusCode();
    }
    return ((CallResult.Synthetic<HttpResponse<InputStream>>) result).response().status();
  }

  /** One chat call on behalf of {@code tenant}; its status. */
  int callAs(String tenant, String baseUrl) throws IOException {
    try (Tenants.Scope bound = Tenants.bind(tenant)) {
      return call(baseUrl);
    }
  }

  @Override
  public HttpResponse<InputStream> send(OutboundRequest request) throws IOException {
    HttpRequest.Builder builder = HttpRequest.newBuilder(request.uri())
        .timeout(Duration.ofSeconds(15))
        .method(request.method(), HttpRequest.BodyPublishers.ofByteArray(request.body()));
    for (Headers.Field field : request.headers().fields()) {
      if (!RESTRICTED.contains(field.name().toLowerCase())) {
        builder.header(field.name(), field.value());
      }
    }
    try {
      return client.send(builder.build(), HttpResponse.BodyHandlers.ofInputStream());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted");
    }
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
      body.transferTo(java.io.OutputStream.nullOutputStream());
    } catch (IOException ignored) {
      // a failed attempt's body is of no interest
    }
  }
}
