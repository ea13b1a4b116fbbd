package io.tollgate.samples.legacy;

import java.io.InputStream;
import org.apache.hc.client5.http.classic.methods.HttpPost;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;

/** Chat calls through Apache HttpClient 5's classic (blocking) API. */
final class ApacheHttpChat implements ChatClient {

  private final CloseableHttpClient client;
  private final AppOptions options;

  ApacheHttpChat(AppOptions options) {
    this.options = options;
    this.client = HttpClients.custom()
        .setConnectionManager(PoolingHttpClientConnectionManagerBuilder.create()
            .setMaxConnPerRoute(options.threads())
            .setMaxConnTotal(options.threads())
            .build())
        // Its default would repeat a 429 or 503 after the Retry-After: one logged call, one request.
        .disableAutomaticRetries()
        .build();
  }

  @Override
  public String name() {
    return "apache";
  }

  @Override
  public ChatReply send(ChatRequest request) throws Exception {
    HttpPost post = new HttpPost(options.chatCompletions());
    post.setHeader("Authorization", "Bearer " + options.apiKey());
    post.setHeader(ChatRequest.ID_HEADER, request.id());
    post.setEntity(new ByteArrayEntity(request.body(), ContentType.APPLICATION_JSON));
    return client.execute(post, response -> {
      try (InputStream body = response.getEntity().getContent()) {
        return ChatReply.read(response.getCode(), body, request.stream());
      }
    });
  }

  @Override
  public void close() throws Exception {
    client.close();
  }
}
