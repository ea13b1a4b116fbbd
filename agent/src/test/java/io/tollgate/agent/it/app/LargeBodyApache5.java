package io.tollgate.agent.it.app;

import org.apache.hc.client5.http.classic.methods.HttpPost;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.CloseableHttpResponse;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.apache.hc.core5.http.io.entity.InputStreamEntity;

/** {@link LargeBodyApp} on Apache HttpClient 5 classic: an {@code InputStreamEntity} of length -1. */
public final class LargeBodyApache5 implements LargeBodyApp.Sender {

  @Override
  public LargeBodyApp.Answer send(String url, long size, String key) throws Exception {
    try (CloseableHttpClient client = HttpClients.createDefault()) {
      HttpPost post = new HttpPost(url);
      post.setHeader("Authorization", "Bearer " + key);
      post.setEntity(new InputStreamEntity(new GeneratedChat(size), -1, ContentType.APPLICATION_JSON));
      try (CloseableHttpResponse response = client.execute(post)) {
        return new LargeBodyApp.Answer(response.getCode(),
            value(response.getFirstHeader("Retry-After")), value(response.getFirstHeader("Content-Type")),
            EntityUtils.toByteArray(response.getEntity()));
      }
    }
  }

  private static String value(Header header) {
    return header == null ? null : header.getValue();
  }
}
