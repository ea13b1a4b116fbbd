package io.tollgate.samples.legacy;

import java.time.Duration;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;

/** Chat calls through OkHttp's synchronous {@code execute()}. */
final class OkHttpChat implements ChatClient {

  private static final MediaType JSON = MediaType.get("application/json");

  private final OkHttpClient client;
  private final AppOptions options;

  OkHttpChat(AppOptions options) {
    this.options = options;
    this.client = new OkHttpClient.Builder().readTimeout(Duration.ofSeconds(30)).build();
  }

  @Override
  public String name() {
    return "okhttp";
  }

  @Override
  public ChatReply send(ChatRequest request) throws Exception {
    Request call = new Request.Builder()
        .url(options.chatCompletions().toString())
        .header("Authorization", "Bearer " + options.apiKey())
        .header(ChatRequest.ID_HEADER, request.id())
        .post(RequestBody.create(request.body(), JSON))
        .build();
    try (Response response = client.newCall(call).execute()) {
      return ChatReply.read(response.code(), response.body().byteStream(), request.stream());
    }
  }

  @Override
  public void close() {
    client.dispatcher().executorService().shutdown();
    client.connectionPool().evictAll();
  }
}
