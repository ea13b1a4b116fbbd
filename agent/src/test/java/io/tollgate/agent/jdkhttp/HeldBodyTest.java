package io.tollgate.agent.jdkhttp;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.gate.UsageObserver;
import io.tollgate.llm.Usage;
import io.tollgate.llm.UsageTap;
import java.io.ByteArrayOutputStream;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The held body between the client and the app's subscriber, driven by hand in every order the
 * client and the gate can produce.
 */
class HeldBodyTest {

  @Test
  void requestsNothingUntilDeliveredThenPassesEveryByteAndFeedsTheTapACopy() throws Exception {
    HeldBody<String> held = new HeldBody<>();
    Upstream upstream = new Upstream();
    held.onSubscribe(upstream);
    assertThat(upstream.requested).as("nothing read before the gate decides").isZero();

    RecordingTap tap = new RecordingTap();
    held.deliverTo(HttpResponse.BodySubscribers.ofString(StandardCharsets.UTF_8), observer(tap));
    assertThat(upstream.requested).isPositive();
    ByteBuffer first = ByteBuffer.wrap("data: a\n\n".getBytes(StandardCharsets.UTF_8));
    ByteBuffer second = ByteBuffer.allocateDirect(9).put("data: b\n\n".getBytes(StandardCharsets.UTF_8)).flip();
    held.onNext(List.of(first));
    held.onNext(List.of(second));
    held.onComplete();

    assertThat(held.getBody().toCompletableFuture().get(1, TimeUnit.SECONDS)).isEqualTo("data: a\n\ndata: b\n\n");
    assertThat(tap.bytes.toString(StandardCharsets.UTF_8)).isEqualTo("data: a\n\ndata: b\n\n");
    assertThat(tap.ended).isTrue();
  }

  @Test
  void passesOnTheEndOfABodyThatEndedBeforeTheAppsSubscriberCame() throws Exception {
    HeldBody<String> held = new HeldBody<>();
    Upstream upstream = new Upstream();
    held.onSubscribe(upstream);
    held.onComplete(); // an empty body ends without any request

    RecordingTap tap = new RecordingTap();
    held.deliverTo(HttpResponse.BodySubscribers.ofString(StandardCharsets.UTF_8), observer(tap));

    assertThat(held.getBody().toCompletableFuture().get(1, TimeUnit.SECONDS)).isEmpty();
    assertThat(tap.ended).isTrue();
  }

  @Test
  void connectsWhenTheClientSubscribesAfterTheGateDecided() throws Exception {
    HeldBody<byte[]> held = new HeldBody<>();
    held.deliverTo(HttpResponse.BodySubscribers.ofByteArray(), UsageObserver.none());
    Upstream upstream = new Upstream();
    held.onSubscribe(upstream);
    assertThat(upstream.requested).isPositive();
    held.onNext(List.of(ByteBuffer.wrap(new byte[] {1, 2, 3})));
    held.onComplete();

    assertThat(held.getBody().toCompletableFuture().get(1, TimeUnit.SECONDS)).containsExactly(1, 2, 3);
  }

  @Test
  void cancelsADiscardedBodyWhetherTheClientSubscribedBeforeOrAfter() {
    HeldBody<String> before = new HeldBody<>();
    Upstream early = new Upstream();
    before.onSubscribe(early);
    before.discard();

    HeldBody<String> after = new HeldBody<>();
    after.discard();
    Upstream late = new Upstream();
    after.onSubscribe(late);

    assertThat(early.cancelled).isTrue();
    assertThat(late.cancelled).isTrue();
    assertThat(early.requested + late.requested).isZero();
    assertThat(before.getBody().toCompletableFuture()).isCompletedExceptionally();
  }

  @Test
  void settlesWithWhatWasSeenWhenTheAppCancels() {
    HeldBody<String> held = new HeldBody<>();
    Upstream upstream = new Upstream();
    held.onSubscribe(upstream);
    RecordingTap tap = new RecordingTap();
    List<Flow.Subscription> appSide = new ArrayList<>();
    held.deliverTo(new CancellingSubscriber(appSide), observer(tap));
    held.onNext(List.of(ByteBuffer.wrap("data: a".getBytes(StandardCharsets.UTF_8))));
    appSide.get(0).cancel();

    assertThat(upstream.cancelled).isTrue();
    assertThat(tap.failed).isTrue();
    assertThat(tap.bytes.toString(StandardCharsets.UTF_8)).isEqualTo("data: a");
  }

  private static UsageObserver observer(RecordingTap tap) {
    return UsageObserver.of(tap, usage -> { });
  }

  private static final class Upstream implements Flow.Subscription {
    long requested;
    boolean cancelled;

    @Override
    public void request(long n) {
      requested += n;
    }

    @Override
    public void cancel() {
      cancelled = true;
    }
  }

  /** An app subscriber that asks for everything and keeps its subscription to cancel it. */
  private static final class CancellingSubscriber implements HttpResponse.BodySubscriber<String> {
    private final List<Flow.Subscription> subscriptions;

    CancellingSubscriber(List<Flow.Subscription> subscriptions) {
      this.subscriptions = subscriptions;
    }

    @Override
    public java.util.concurrent.CompletionStage<String> getBody() {
      return new java.util.concurrent.CompletableFuture<>();
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
      subscriptions.add(subscription);
      subscription.request(Long.MAX_VALUE);
    }

    @Override
    public void onNext(List<ByteBuffer> item) {
    }

    @Override
    public void onError(Throwable throwable) {
    }

    @Override
    public void onComplete() {
    }
  }

  private static final class RecordingTap implements UsageTap {
    final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    boolean ended;
    boolean failed;

    @Override
    public void onBytes(byte[] buffer, int offset, int length) {
      bytes.write(buffer, offset, length);
    }

    @Override
    public void onEnd() {
      ended = true;
    }

    @Override
    public void onError(Throwable error) {
      failed = true;
    }

    @Override
    public Usage result() {
      return Usage.unknown();
    }
  }
}
