package io.tollgate.agent.it.app;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Base64;
import org.apache.http.Header;
import org.apache.http.HttpResponse;
import org.apache.http.client.methods.CloseableHttpResponse;
import org.apache.http.client.methods.HttpGet;
import org.apache.http.client.methods.HttpPost;
import org.apache.http.client.methods.HttpRequestBase;
import org.apache.http.entity.ContentType;
import org.apache.http.entity.StringEntity;
import org.apache.http.impl.client.CloseableHttpClient;
import org.apache.http.impl.client.HttpClients;
import org.apache.http.util.EntityUtils;

/**
 * An unmodified app as the agent meets it: plain Apache HttpClient 4.5, no Tollgate on its class
 * path. It makes the calls its arguments list, one after the other, and prints what HttpClient
 * handed it, in {@link OkHttpApp}'s format.
 *
 * <pre>
 * ApacheClassic4App (sync|open|stream|unread) URL (JSON|-) [...]
 * </pre>
 *
 * {@code sync} reads the answer in a response handler, {@code open} from the response that
 * {@code execute} returns, {@code stream} from its content stream in small reads; {@code unread}
 * closes the response {@code execute} returns without touching its entity (and prints an empty
 * body).
 */
public final class ApacheClassic4App {

  private ApacheClassic4App() {}

  public static void main(String[] args) throws Exception {
    System.out.println("app started");
    try (CloseableHttpClient client = HttpClients.createDefault()) {
      for (int i = 0; i + 2 < args.length; i += 3) {
        String mode = args[i];
        HttpRequestBase request;
        if (args[i + 2].equals("-")) {
          request = new HttpGet(args[i + 1]);
        } else {
          HttpPost post = new HttpPost(args[i + 1]);
          post.setEntity(new StringEntity(args[i + 2], ContentType.APPLICATION_JSON));
          request = post;
        }
        for (String[] header : AppHeaders.all()) {
          request.setHeader(header[0], header[1]);
        }
        String line;
        if (mode.equals("sync")) {
          line = client.execute(request, response -> describe(response, false));
        } else if (mode.equals("unread")) {
          try (CloseableHttpResponse response = client.execute(request)) {
            line = "status=" + response.getStatusLine().getStatusCode()
                + " retry-after=" + header(response, "Retry-After")
                + " content-type=" + header(response, "Content-Type") + " body=";
          }
        } else {
          try (CloseableHttpResponse response = client.execute(request)) {
            line = describe(response, mode.equals("stream"));
          }
        }
        System.out.println("call " + (i / 3 + 1) + " " + mode + " " + line);
      }
    }
    System.out.println("app done");
  }

  static String describe(HttpResponse response, boolean stream) throws IOException {
    byte[] body;
    if (stream) {
      // read as a streaming client does: small reads as the events arrive
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      try (InputStream in = response.getEntity().getContent()) {
        byte[] chunk = new byte[64];
        for (int n; (n = in.read(chunk)) != -1; ) {
          out.write(chunk, 0, n);
        }
      }
      body = out.toByteArray();
    } else {
      body = EntityUtils.toByteArray(response.getEntity());
    }
    return "status=" + response.getStatusLine().getStatusCode()
        + " retry-after=" + header(response, "Retry-After")
        + " content-type=" + header(response, "Content-Type")
        + " body=" + Base64.getEncoder().encodeToString(body);
  }

  private static String header(HttpResponse response, String name) {
    Header header = response.getFirstHeader(name);
    return header == null ? "-" : header.getValue();
  }
}
