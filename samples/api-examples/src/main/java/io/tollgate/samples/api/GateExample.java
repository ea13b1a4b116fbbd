package io.tollgate.samples.api;

import io.tollgate.config.TollgateConfig;
import io.tollgate.gate.CallResult;
import io.tollgate.gate.Gate;
import io.tollgate.gate.Transport;
import io.tollgate.llm.Headers;
import io.tollgate.llm.SyntheticResponse;
import io.tollgate.router.OutboundRequest;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;

/**
 * A front end of one's own over the JDK's {@code HttpClient}: what the agent does for every client
 * it instruments, in a few lines. The gate plans each attempt; the transport sends it.
 */
public final class GateExample {

  private GateExample() {}

  /** {@code calls} chat calls to {@code url} through one gate; each answer's status and body. */
  public static List<String> chats(String configLocation, URI url, String json, int calls)
      throws IOException {
    try (Gate gate = Gate.create(TollgateConfig.load(configLocation))) {
      List<String> answers = new ArrayList<>();
      for (int i = 0; i < calls; i++) {
        answers.add(chat(gate, url, json));
      }
      return answers;
    }
  }

  /** One chat call to {@code url} through {@code gate}: the answer's status and body. */
  static String chat(Gate gate, URI url, String json) throws IOException {
    OutboundRequest request = OutboundRequest.of("POST", url,
        Headers.of("content-type", "application/json"), json.getBytes());
    Transport<HttpResponse<InputStream>> transport = new JdkTransport(HttpClient.newHttpClient());
    CallResult<HttpResponse<InputStream>> result = gate.call(request, true, transport);
    if (result instanceof CallResult.Forwarded<HttpResponse<InputStream>> forwarded) {
      try (InputStream body = forwarded.usage().wrap(forwarded.response().body())) {
        return forwarded.response().statusCode() + " " + new String(body.readAllBytes());
      }
    } else if (result instanceof CallResult.Synthetic<HttpResponse<InputStream>> synthetic) {
      SyntheticResponse refused = synthetic.response();
      return refused.status() + " " + new String(refused.body());
    }
    throw new IllegalStateException("a call result is forwarded or synthetic");
  }

  /** Sends each attempt the gate plans; reads a refused answer's body before the next attempt. */
  static final class JdkTransport implements Transport<HttpResponse<InputStream>> {
    private final HttpClient client;

    JdkTransport(HttpClient client) {
      this.client = client;
    }

    @Override
    public HttpResponse<InputStream> send(OutboundRequest planned) throws IOException {
      HttpRequest.Builder request = HttpRequest.newBuilder(planned.uri())
          .method(planned.method(), HttpRequest.BodyPublishers.ofByteArray(planned.body()));
      for (Headers.Field field : planned.headers().fields()) {
        if (!field.name().equalsIgnoreCase("content-length")
            && !field.name().equalsIgnoreCase("host")) {
          request.header(field.name(), field.value());
        }
      }
      try {
        return client.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted", e);
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
      try {
        response.body().close();
      } catch (IOException e) {
        // the connection is dropped either way: nothing held
      }
    }
  }
}
