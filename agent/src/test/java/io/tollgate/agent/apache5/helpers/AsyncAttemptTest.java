package io.tollgate.agent.apache5.helpers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.gate.UsageObserver;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.hc.client5.http.async.methods.SimpleHttpResponse;
import org.apache.hc.client5.http.async.methods.SimpleResponseConsumer;
import org.apache.hc.core5.concurrent.BasicFuture;
import org.apache.hc.core5.concurrent.FutureCallback;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.impl.BasicEntityDetails;
import org.apache.hc.core5.http.message.BasicHttpResponse;
import org.apache.hc.core5.http.nio.AsyncResponseConsumer;
import org.junit.jupiter.api.Test;

/** One attempt's response, driven as HttpClient 5 drives a response consumer. */
class AsyncAttemptTest {

  private final List<String> exchange = new ArrayList<>();
  private final AsyncAttempt attempt = new AsyncAttempt(ConcurrentHashMap.newKeySet(), 8);

  @Test
  void handsOverAWholeHeldResponseEvenWhenTheExchangeIsCancelledAfterItsEnd() throws Exception {
    attempt.consumeResponse(new BasicHttpResponse(429), details(5), null, recording());
    attempt.consume(ByteBuffer.wrap("limit".getBytes(StandardCharsets.US_ASCII)));
    attempt.streamEnd(null);
    // HttpClient cancels an exchange whose future completed before execute() returned
    attempt.failed(new InterruptedIOException());
    assertThat(attempt.head()).isCompleted();
    assertThat(exchange).containsExactly("completed");

    BasicFuture<Object> app = new BasicFuture<>(null);
    attempt.forwardTo(simple(), UsageObserver.none(), completing(app));

    SimpleHttpResponse response = (SimpleHttpResponse) app.get(5, TimeUnit.SECONDS);
    assertThat(response.getCode()).isEqualTo(429);
    assertThat(response.getBodyText()).isEqualTo("limit");
  }

  @Test
  void failsTheAppsFutureWhenTheBodyBreaksAfterItWasHandedOver() throws Exception {
    attempt.consumeResponse(new BasicHttpResponse(200), details(100), null, recording());
    BasicFuture<Object> app = new BasicFuture<>(null);
    attempt.forwardTo(simple(), UsageObserver.none(), completing(app));
    attempt.consume(ByteBuffer.wrap("data: {".getBytes(StandardCharsets.US_ASCII)));

    attempt.failed(new IOException("connection reset"));

    assertThatThrownBy(() -> app.get(5, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
        .cause().isInstanceOf(IOException.class).hasMessage("connection reset");
    assertThat(exchange).containsExactly("failed");
  }

  @Test
  void dropsADiscardedResponseAndFreesTheExchangeAtItsEnd() throws Exception {
    attempt.consumeResponse(new BasicHttpResponse(500), details(5), null, recording());
    attempt.discard();
    attempt.consume(ByteBuffer.wrap("error".getBytes(StandardCharsets.US_ASCII)));
    attempt.streamEnd(null);

    assertThat(exchange).containsExactly("completed");
  }

  @Test
  void givesTheClientNoCapacityForMoreThanTheBoundUntilTheGateDecides() throws Exception {
    List<Integer> granted = new ArrayList<>();
    attempt.consumeResponse(new BasicHttpResponse(500), details(100), null, recording());
    attempt.updateCapacity(granted::add);
    attempt.consume(ByteBuffer.wrap("error body".getBytes(StandardCharsets.US_ASCII)));
    attempt.updateCapacity(granted::add);

    assertThat(granted).as("bound 8: room for 9 bytes, then none").containsExactly(9);

    attempt.discard();

    assertThat(granted).as("dropped: the rest is read and let go").containsExactly(9, Integer.MAX_VALUE);
  }

  private static BasicEntityDetails details(long length) {
    return new BasicEntityDetails(length, ContentType.TEXT_PLAIN);
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static AsyncResponseConsumer<Object> simple() {
    return (AsyncResponseConsumer) SimpleResponseConsumer.create();
  }

  /** The client's callback for the exchange. */
  private FutureCallback<Object> recording() {
    return new FutureCallback<>() {
      @Override
      public void completed(Object result) {
        exchange.add("completed");
      }

      @Override
      public void failed(Exception cause) {
        exchange.add("failed");
      }

      @Override
      public void cancelled() {
        exchange.add("cancelled");
      }
    };
  }

  private static FutureCallback<Object> completing(BasicFuture<Object> future) {
    return new FutureCallback<>() {
      @Override
      public void completed(Object result) {
        future.completed(result);
      }

      @Override
      public void failed(Exception cause) {
        future.failed(cause);
      }

      @Override
      public void cancelled() {
        future.cancel();
      }
    };
  }
}
