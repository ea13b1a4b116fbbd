package io.tollgate.agent.apache5.helpers;

import io.tollgate.router.StreamedBody;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.hc.core5.http.EntityDetails;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpException;
import org.apache.hc.core5.http.HttpRequest;
import org.apache.hc.core5.http.nio.AsyncRequestProducer;
import org.apache.hc.core5.http.nio.DataStreamChannel;
import org.apache.hc.core5.http.nio.RequestChannel;
import org.apache.hc.core5.http.protocol.HttpContext;

/**
 * Reads an app's request out of its {@link AsyncRequestProducer}, as the client would: first the
 * head ({@code sendRequest}), then, for a provider call, the body ({@code produce} until the end of
 * the stream). Only a repeatable producer's body is read: a repeatable producer starts over after
 * {@code releaseResources()}, so the app's request can still be sent as it was. Any other (a
 * streamed body) is sent once as it is, with the head read here ({@link #streamed}).
 */
final class RequestCapture implements RequestChannel, DataStreamChannel {

  /** Producers of in-memory bodies end within a few calls; one that does not is streaming. */
  private static final int MAX_IDLE_PRODUCE_CALLS = 3;

  private HttpRequest request;
  private EntityDetails details;
  private ByteArrayOutputStream body;
  private boolean ended;
  /** The most bytes {@link #body} takes: one past the bound. */
  private int limit = Integer.MAX_VALUE;

  private RequestCapture() {}

  /** The request head, or null when the producer announced none. */
  static RequestCapture head(AsyncRequestProducer producer, HttpContext context)
      throws HttpException, IOException {
    RequestCapture capture = new RequestCapture();
    producer.sendRequest(capture, context);
    return capture.request == null ? null : capture;
  }

  /**
   * The app's producer as it must now be sent, its head having been read here: itself when it is
   * repeatable (it starts over), else a producer that announces the head read and leaves the body
   * to the app's.
   */
  AsyncRequestProducer sendable(AsyncRequestProducer producer) {
    return producer.isRepeatable() && !partlyRead() ? producer : streamed(producer);
  }

  /** The app's producer with the head read here: its body is sent once, as it is produced. */
  StreamedRequestProducer streamed(AsyncRequestProducer producer) {
    return streamed(producer, null);
  }

  /** As {@link #streamed(AsyncRequestProducer)}, each byte produced counted into {@code counted}. */
  StreamedRequestProducer streamed(AsyncRequestProducer producer, StreamedBody counted) {
    return new StreamedRequestProducer(request, details, held(), producer, counted);
  }

  HttpRequest request() {
    return request;
  }

  /** The body's description, null for a request without one. */
  EntityDetails details() {
    return details;
  }

  /**
   * The whole body, or null when it is not read into memory first: the producer is not
   * repeatable (nothing is read of it), or did not finish it at once (a streaming body), or
   * produced more than {@code bound} bytes. A producer read whole is reset (it starts over); one
   * read in part is left where it stopped, the bytes read ({@link #held()}, at most bound + 1) to
   * be sent before the rest it produces ({@link #streamed}).
   */
  byte[] body(AsyncRequestProducer producer, int bound) throws IOException {
    if (details == null) {
      return new byte[0];
    }
    if (!producer.isRepeatable()) {
      return null;
    }
    limit = bound + 1;
    body = new ByteArrayOutputStream(
        (int) Math.max(0, Math.min(details.getContentLength(), Math.min(limit, 64 * 1024))));
    int idle = 0;
    while (!ended && body.size() < limit && idle < MAX_IDLE_PRODUCE_CALLS) {
      int before = body.size();
      producer.produce(this);
      idle = body.size() == before ? idle + 1 : 0;
    }
    if (ended && body.size() <= bound) {
      producer.releaseResources();
      byte[] whole = body.toByteArray();
      body = null;
      return whole;
    }
    return null;
  }

  /** The bytes read of a body {@link #body} did not read whole: its start, possibly none. */
  byte[] held() {
    return body == null ? new byte[0] : body.toByteArray();
  }

  /** True when part of the body was read: the producer cannot start over. */
  boolean partlyRead() {
    return body != null && body.size() > 0;
  }

  @Override
  public void sendRequest(HttpRequest request, EntityDetails entityDetails, HttpContext context) {
    this.request = request;
    this.details = entityDetails;
  }

  @Override
  public void requestOutput() {
    // produce() is called in a loop until the end
  }

  @Override
  public int write(ByteBuffer src) {
    int length = Math.min(src.remaining(), limit - body.size()); // the rest is not taken
    if (src.hasArray()) {
      body.write(src.array(), src.arrayOffset() + src.position(), length);
      src.position(src.position() + length);
    } else {
      byte[] copy = new byte[length];
      src.get(copy);
      body.write(copy, 0, length);
    }
    return length;
  }

  @Override
  public void endStream() {
    ended = true;
  }

  @Override
  public void endStream(List<? extends Header> trailers) {
    ended = true;
  }
}
