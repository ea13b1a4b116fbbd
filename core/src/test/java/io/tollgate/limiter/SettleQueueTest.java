package io.tollgate.limiter;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URL;
import java.net.URLClassLoader;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The queue behind {@link RateLimiter#settleLater}, on its own: what it takes, what it refuses, and
 * what closing it does. The batches go to a recording consumer that can be held at will; the Redis
 * side is {@link SettleLaterTest}'s.
 */
class SettleQueueTest {

  private static final Duration LONG = Duration.ofSeconds(30);
  private static final Limits LIMITS = Limits.of(Limit.tokens(1000, Duration.ofDays(1)));

  private final List<Settlement> applied = Collections.synchronizedList(new ArrayList<>());
  private final List<String> threads = Collections.synchronizedList(new ArrayList<>());
  private final CountDownLatch holding = new CountDownLatch(1);
  private final CountDownLatch released = new CountDownLatch(1);
  private final List<SettleQueue> queues = new ArrayList<>();

  @AfterEach
  void release() {
    released.countDown();
    queues.forEach(SettleQueue::close);
  }

  private SettleQueue queue(Consumer<List<Settlement>> apply, Duration drainOnClose) {
    SettleQueue queue = new SettleQueue(apply, drainOnClose);
    queues.add(queue);
    return queue;
  }

  /** Records each batch, and holds the first until {@link #released}. */
  private void holdFirstThenRecord(List<Settlement> batch) {
    if (holding.getCount() > 0) {
      holding.countDown();
      await(released);
    }
    threads.add(Thread.currentThread().getName());
    applied.addAll(batch);
  }

  private static Settlement settlement(int n) {
    Reservation reservation = new Reservation("r" + n, Subject.of("tenant", "queue"), LIMITS, 1,
        10, 0, false);
    return new Settlement(reservation, n);
  }

  @Test
  void appliesEverySettleOnItsOwnThreadInOrder() {
    SettleQueue queue = queue(this::holdFirstThenRecord, LONG);
    released.countDown();

    for (int i = 0; i < 200; i++) {
      assertThat(queue.offer(settlement(i))).isTrue();
    }

    assertThat(queue.awaitSettled(LONG)).isTrue();
    assertThat(applied).extracting(Settlement::actualTokens)
        .containsExactlyElementsOf(range(0, 200));
    assertThat(threads).containsOnly("tollgate-settle");
  }

  @Test
  void theSettleThreadHasTollgatesClassLoaderNotThatOfTheThreadSettlingFirst() throws Exception {
    List<ClassLoader> contexts = Collections.synchronizedList(new ArrayList<>());
    SettleQueue queue = queue(batch -> contexts.add(Thread.currentThread().getContextClassLoader()), LONG);
    try (URLClassLoader webApp = new URLClassLoader(new URL[0], null)) {
      Thread request = new Thread(() -> queue.offer(settlement(1)), "a web app's request");
      request.setContextClassLoader(webApp);
      request.start();
      request.join();

      assertThat(queue.awaitSettled(LONG)).isTrue();
      assertThat(contexts).as("a container must not find its app's loader held by this thread")
          .containsExactly(SettleQueue.class.getClassLoader());
    }
  }

  @Test
  void refusesASettleWhenFullAndLosesNoneItTook() {
    SettleQueue queue = queue(this::holdFirstThenRecord, LONG);
    assertThat(queue.offer(settlement(0))).isTrue();
    await(holding); // the settler thread holds the first: the rest wait in the queue

    for (int i = 1; i <= SettleQueue.CAPACITY; i++) {
      assertThat(queue.offer(settlement(i))).isTrue();
    }
    boolean tookOneMore = queue.offer(settlement(SettleQueue.CAPACITY + 1));
    released.countDown();

    assertThat(tookOneMore).isFalse();
    assertThat(queue.awaitSettled(LONG)).isTrue();
    assertThat(applied).extracting(Settlement::actualTokens)
        .containsExactlyElementsOf(range(0, SettleQueue.CAPACITY + 1));
  }

  @Test
  void closeAppliesWhatIsQueuedThenRefuses() {
    SettleQueue queue = queue(this::holdFirstThenRecord, LONG);
    released.countDown();
    for (int i = 0; i < 100; i++) {
      queue.offer(settlement(i));
    }

    queue.close();

    assertThat(applied).hasSize(100);
    assertThat(queue.offer(settlement(100))).isFalse();
  }

  @Test
  void closeDropsWhatIsStillQueuedAfterItsBound() {
    SettleQueue queue = queue(this::holdFirstThenRecord, Duration.ZERO);
    queue.offer(settlement(0));
    await(holding);
    for (int i = 1; i <= 5; i++) {
      queue.offer(settlement(i));
    }

    queue.close(); // gives up at once: the five waiting are dropped, the one being applied is not
    released.countDown();

    assertThat(queue.awaitSettled(LONG)).isTrue();
    assertThat(applied).extracting(Settlement::actualTokens).containsExactly(0L);
  }

  @Test
  void aBatchThatFailsIsDroppedAndTheNextIsApplied() {
    SettleQueue queue = queue(batch -> {
      if (batch.get(0).actualTokens() == 0) {
        throw new IllegalStateException("Redis said no");
      }
      applied.addAll(batch);
    }, LONG);

    queue.offer(settlement(0));
    assertThat(queue.awaitSettled(LONG)).isTrue();
    queue.offer(settlement(1));

    assertThat(queue.awaitSettled(LONG)).isTrue();
    assertThat(applied).extracting(Settlement::actualTokens).containsExactly(1L);
  }

  @Test
  void settlesOfOneLingerGoTogetherAndAFullBatchGoesAtOnce() {
    List<Integer> batches = Collections.synchronizedList(new ArrayList<>());
    SettleQueue queue = new SettleQueue(batch -> {
      batches.add(batch.size());
      applied.addAll(batch);
    }, LONG, Duration.ofMinutes(5));
    queues.add(queue);

    for (int i = 0; i < SettleQueue.MAX_BATCH + 3; i++) {
      assertThat(queue.offer(settlement(i))).isTrue();
    }

    // the first 64 fill a batch, which ends its linger long before the 5 minutes are up
    await(() -> applied.size() == SettleQueue.MAX_BATCH);
    assertThat(batches).containsExactly(SettleQueue.MAX_BATCH);
    assertThat(queue.awaitSettled(Duration.ZERO)).as("3 more, lingering").isFalse();

    queue.close(); // ends the linger: the 3 are sent, not dropped after the drain bound

    assertThat(batches).containsExactly(SettleQueue.MAX_BATCH, 3);
    assertThat(applied).extracting(Settlement::actualTokens)
        .containsExactlyElementsOf(range(0, SettleQueue.MAX_BATCH + 3));
  }

  @Test
  void awaitSettledGivesUpAfterItsTimeout() {
    SettleQueue queue = queue(this::holdFirstThenRecord, LONG);
    queue.offer(settlement(0));
    await(holding);

    assertThat(queue.awaitSettled(Duration.ZERO)).isFalse();
  }

  private static List<Long> range(int from, int to) {
    List<Long> values = new ArrayList<>();
    for (long i = from; i < to; i++) {
      values.add(i);
    }
    return values;
  }

  private static void await(java.util.function.BooleanSupplier condition) {
    long deadline = System.nanoTime() + LONG.toNanos();
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as("waited " + LONG).isLessThan(deadline);
      Thread.onSpinWait();
      try {
        Thread.sleep(1);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
  }

  private static void await(CountDownLatch latch) {
    try {
      assertThat(latch.await(30, TimeUnit.SECONDS)).isTrue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
