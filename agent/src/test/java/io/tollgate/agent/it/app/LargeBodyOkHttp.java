package io.tollgate.agent.it.app;

import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.TimeUnit;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okio.BufferedSink;

/** {@link LargeBodyApp} on OkHttp: a {@code RequestBody} of length -1 written from a stream. */
public final class LargeBodyOkHttp implements LargeBodyApp.Sender {

  @Override
  public LargeBodyApp.Answer send(String url, long size, String key) throws IOException {
    OkHttpClient client = new OkHttpClient.Builder().readTimeout(60, TimeUnit.SECONDS).build();
    RequestBody body = new RequestBody() {
      @Override
      public MediaType contentType() {
        return MediaType.parse("application/json");
      }

      @Override
      public void writeTo(BufferedSink sink) throws IOException {
        byte[] chunk = new byte[8192];
        try (InputStream in = new GeneratedChat(size)) {
          for (int n; (n = in.read(chunk)) != -1; ) {
            sink.write(chunk, 0, n);
          }
        }
      }
    };
    Request request = new Request.Builder().url(url).header("Authorization", "Bearer " + key)
        .post(body).build();
    try (Response response = client.newCall(request).execute()) {
      return new LargeBodyApp.Answer(response.code(), response.header("Retry-After"),
          response.header("Content-Type"), response.body().bytes());
    } finally {
      client.dispatcher().executorService().shutdown();
      client.connectionPool().evictAll();
    }
  }
}
