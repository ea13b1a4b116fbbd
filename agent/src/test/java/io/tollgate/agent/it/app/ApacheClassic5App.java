package io.tollgate.agent.it.app;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Base64;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.classic.methods.HttpPost;
import org.apache.hc.client5.http.classic.methods.HttpUriRequestBase;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.CloseableHttpResponse;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.apache.hc.core5.http.io.entity.StringEntity;

/**
 * An unmodified app as the agent meets it: plain Apache HttpClient 5 (classic), no Tollgate on its
 * class path. It makes the calls its arguments list, one after the other, and prints what
 * HttpClient handed it, in {@link OkHttpApp}'s format.
 *
 * <pre>
 * ApacheClassic5App (sync|open|stream) URL (JSON|-) [...]
 * </pre>
 *
 * {@code sync} reads the answer in a response handler, {@code open} from the response that
 * {@code execute} returns, {@code stream} from its content stream in small reads.
 */
public final class ApacheClassic5App {

  private ApacheClassic5App() {}

  @SuppressWarnings("deprecation") // execute(request) returning the response: 5.1's API
  public static void main(String[] args) throws Exception {
    System.out.println("app started");
    try (CloseableHttpClient client = HttpClients.createDefault()) {
      for (int i = 0; i + 2 < args.length; i += 3) {
        String mode = args[i];
        HttpUriRequestBase request;
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

  static String describe(ClassicHttpResponse response, boolean stream) throws IOException {
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
    return "status=" + response.getCode()
        + " retry-after=" + header(response, "Retry-After")
        + " content-type=" + header(response, "Content-Type")
        + " body=" + Base64.getEncoder().encodeToString(body);
  }

  private static String header(ClassicHttpResponse response, String name) {
    Header header = response.getFirstHeader(name);
    return header == null ? "-" : header.getValue();
  }
}
