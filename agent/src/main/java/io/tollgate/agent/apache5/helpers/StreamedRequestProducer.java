package io.tollgate.agent.apache5.helpers;

import java.io.IOException;
import org.apache.hc.core5.http.EntityDetails;
import org.apache.hc.core5.http.HttpException;
import org.apache.hc.core5.http.HttpRequest;
import org.apache.hc.core5.http.nio.AsyncRequestProducer;
import org.apache.hc.core5.http.nio.DataStreamChannel;
import org.apache.hc.core5.http.nio.RequestChannel;
import org.apache.hc.core5.http.protocol.HttpContext;

/**
 * The app's producer of a body that cannot be read into memory first (a streamed one), after
 * Tollgate has read its head: announces that head again and leaves the body to the app's
 * producer, so the bytes go out as the app produces them and the producer is asked for its head
 * only once.
 */
final class StreamedRequestProducer implements AsyncRequestProducer {

  private final HttpRequest request;
  private final EntityDetails details;
  private final AsyncRequestProducer app;

  StreamedRequestProducer(HttpRequest request, EntityDetails details, AsyncRequestProducer app) {
    this.request = request;
    this.details = details;
    this.app = app;
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
    return app.available();
  }

  @Override
  public void produce(DataStreamChannel channel) throws IOException {
    app.produce(channel);
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
