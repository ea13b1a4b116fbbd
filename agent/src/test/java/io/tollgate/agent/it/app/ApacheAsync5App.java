package io.tollgate.agent.it.app;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.hc.client5.http.async.methods.AbstractBinResponseConsumer;
import org.apache.hc.client5.http.async.methods.SimpleHttpRequest;
import org.apache.hc.client5.http.async.methods.SimpleHttpResponse;
import org.apache.hc.client5.http.async.methods.SimpleRequestProducer;
import org.apache.hc.client5.http.async.methods.SimpleResponseConsumer;
import org.apache.hc.client5.http.impl.async.CloseableHttpAsyncClient;
import org.apache.hc.client5.http.impl.async.HttpAsyncClients;
import org.apache.hc.core5.concurrent.FutureCallback;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpResponse;
import org.apache.hc.core5.http.message.BasicHttpRequest;
import org.apache.hc.core5.http.nio.support.BasicRequestProducer;

/**
 * An unmodified app as the agent meets it: plain Apache HttpClient 5 (async), no Tollgate on its
 * class path. It makes the calls its arguments list, one after the other, and prints what
 * HttpClient handed it, in {@link OkHttpApp}'s format.
 *
 * <pre>
 * ApacheAsync5App (future|callback|stream|upload) URL (JSON|-) [...]
 * </pre>
 *
 * {@code future} waits on the returned future, {@code callback} takes the answer in its
 * {@code FutureCallback}, both with the simple request producer and response consumer;
 * {@code stream} reads the body with its own consumer as the chunks arrive; {@code upload} sends
 * the JSON from a producer of its own that streams it in three pieces, chunked and not
 * repeatable, and waits on the future.
 */
public final class ApacheAsync5App {

  private ApacheAsync5App() {}

  public static void main(String[] args) throws Exception {
    System.out.println("app started");
    try (CloseableHttpAsyncClient client = HttpAsyncClients.createDefault()) {
      client.start();
      for (int i = 0; i + 2 < args.length; i += 3) {
        String mode = args[i];
        SimpleHttpRequest request = SimpleHttpRequest.create(
            args[i + 2].equals("-") ? "GET" : "POST", args[i + 1]);
        if (!args[i + 2].equals("-")) {
          request.setBody(args[i + 2], ContentType.APPLICATION_JSON);
        }
        for (String[] header : AppHeaders.all()) {
          request.setHeader(header[0], header[1]);
        }
        String line;
        if (mode.equals("upload")) {
          BasicHttpRequest head = new BasicHttpRequest("POST", URI.create(args[i + 1]));
          for (String[] header : AppHeaders.all()) {
            head.setHeader(header[0], header[1]);
          }
          line = describe(client.execute(new BasicRequestProducer(head, new ChunkedJsonProducer(args[i + 2])),
              SimpleResponseConsumer.create(), null).get(30, TimeUnit.SECONDS));
        } else if (mode.equals("stream")) {
          line = client.execute(SimpleRequestProducer.create(request), new Streamed(), null)
              .get(30, TimeUnit.SECONDS);
        } else if (mode.equals("callback")) {
          CompletableFuture<SimpleHttpResponse> answered = new CompletableFuture<>();
          client.execute(SimpleRequestProducer.create(request), SimpleResponseConsumer.create(),
              new FutureCallback<SimpleHttpResponse>() {
                @Override
                public void completed(SimpleHttpResponse response) {
                  answered.complete(response);
                }

                @Override
                public void failed(Exception e) {
                  answered.completeExceptionally(e);
                }

                @Override
                public void cancelled() {
                  answered.cancel(false);
                }
              });
          line = describe(answered.get(30, TimeUnit.SECONDS));
        } else {
          line = describe(client.execute(SimpleRequestProducer.create(request),
              SimpleResponseConsumer.create(), null).get(30, TimeUnit.SECONDS));
        }
        System.out.println("call " + (i / 3 + 1) + " " + mode + " " + line);
      }
    }
    System.out.println("app done");
  }

  private static String describe(SimpleHttpResponse response) {
    return describe(response, response.getBodyBytes() == null ? new byte[0] : response.getBodyBytes());
  }

  static String describe(HttpResponse response, byte[] body) {
    return "status=" + response.getCode()
        + " retry-after=" + header(response, "Retry-After")
        + " content-type=" + header(response, "Content-Type")
        + " body=" + Base64.getEncoder().encodeToString(body);
  }

  private static String header(HttpResponse response, String name) {
    Header header = response.getFirstHeader(name);
    return header == null ? "-" : header.getValue();
  }

  /** Takes the body chunk by chunk as it arrives, as a streaming client does. */
  private static final class Streamed extends AbstractBinResponseConsumer<String> {
    private final ByteArrayOutputStream body = new ByteArrayOutputStream();
    private HttpResponse head;

    @Override
    protected void start(HttpResponse response, ContentType contentType) {
      head = response;
    }

    @Override
    protected int capacityIncrement() {
      return 64;
    }

    @Override
    protected void data(ByteBuffer src, boolean endOfStream) {
      while (src.hasRemaining()) {
        body.write(src.get());
      }
    }

    @Override
    protected String buildResult() {
      return describe(head, body.toByteArray());
    }

    @Override
    public void releaseResources() {
      // nothing held
    }
  }
}
