package io.tollgate.agent.apache5.helpers;

import io.tollgate.router.StreamedBody;
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
 * The app's producer of a body that is not read into memory first (a streamed one, or one larger
 * than {@code tokens.max-buffered-body}), after Tollgate has read its head: announces that head
 * again, sends the bytes Tollgate read of the body, if any, and leaves the rest to the app's
 * producer, so the bytes go out as the app produces them and the producer is asked for its head
 * only once.
 */
final class StreamedRequestProducer implements AsyncRequestProducer {

  private final HttpRequest request;
  private final EntityDetails details;
  private final AsyncRequestProducer app;
  /** The bytes read of the body before it was sent, to go first; emptied as they are. */
  private ByteBuffer held;
  /** Where each byte the app's producer produces is counted; null when nobody counts. */
  private final StreamedBody counted;
  private CountingChannel channel;

  StreamedRequestProducer(HttpRequest request, EntityDetails details, byte[] held,
      AsyncRequestProducer app, StreamedBody counted) {
    this.request = request;
    this.details = details;
    this.held = held.length == 0 ? null : ByteBuffer.wrap(held);
    this.app = app;
    this.counted = counted;
    if (counted != null) {
      counted.passed(held.length);
    }
  }

  @Override
  public void sendRequest(RequestChannel channel, HttpContext context)
      throws HttpException, IOException {
    channel.sendRequest(request, details, context);
  }

  @Override
  public boolean isRepeatable() {
    return false; // sent once: neither HttpClient's retries nor a fallback may ask for it again
  }

  @Override
  public int available() {
    ByteBuffer first = held;
    int own = first == null ? 0 : first.remaining();
    int rest = app.available();
    return own + rest < 0 ? Integer.MAX_VALUE : own + rest;
  }

  @Override
  public void produce(DataStreamChannel channel) throws IOException {
    ByteBuffer first = held;
    if (first != null) {
      channel.write(first);
      if (first.hasRemaining()) {
        channel.requestOutput();
        return;
      }
      held = null;
    }
    if (counted == null) {
      app.produce(channel);
      return;
    }
    if (this.channel == null || this.channel.to != channel) {
      this.channel = new CountingChannel(channel, counted);
    }
    app.produce(this.channel);
  }

  /** The client's channel, each byte it takes counted. */
  private static final class CountingChannel implements DataStreamChannel {
    private final DataStreamChannel to;
    private final StreamedBody counted;

    CountingChannel(DataStreamChannel to, StreamedBody counted) {
      this.to = to;
      this.counted = counted;
    }

    @Override
    public void requestOutput() {
      to.requestOutput();
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
      int written = to.write(src);
      counted.passed(written);
      return written;
    }

    @Override
    public void endStream() throws IOException {
      to.endStream();
    }

    @Override
    public void endStream(List<? extends Header> trailers) throws IOException {
      to.endStream(trailers);
    }
  }

  @Override
  public void failed(Exception cause) {
    app.failed(cause);
  }

  @Override
  public void releaseResources() {
    app.releaseResources();
  }
}
