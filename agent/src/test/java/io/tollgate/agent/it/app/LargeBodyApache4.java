package io.tollgate.agent.it.app;

import org.apache.http.Header;
import org.apache.http.client.methods.CloseableHttpResponse;
import org.apache.http.client.methods.HttpPost;
import org.apache.http.entity.ContentType;
import org.apache.http.entity.InputStreamEntity;
import org.apache.http.impl.client.CloseableHttpClient;
import org.apache.http.impl.client.HttpClients;
import org.apache.http.util.EntityUtils;

/** {@link LargeBodyApp} on Apache HttpClient 4.5: an {@code InputStreamEntity} of length -1. */
public final class LargeBodyApache4 implements LargeBodyApp.Sender {

  @Override
  public LargeBodyApp.Answer send(String url, long size, String key) throws Exception {
    try (CloseableHttpClient client = HttpClients.createDefault()) {
      HttpPost post = new HttpPost(url);
      post.setHeader("Authorization", "Bearer " + key);
      post.setEntity(new InputStreamEntity(new GeneratedChat(size), -1, ContentType.APPLICATION_JSON));
      try (CloseableHttpResponse response = client.execute(post)) {
        return new LargeBodyApp.Answer(response.getStatusLine().getStatusCode(),
            value(response.getFirstHeader("Retry-After")), value(response.getFirstHeader("Content-Type")),
            EntityUtils.toByteArray(response.getEntity()));
      }
    }
  }

  private static String value(Header header) {
    return header == null ? null : header.getValue();
  }
}
