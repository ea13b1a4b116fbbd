package io.tollgate.testkit.llm;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

/**
 * Every request the server received, in arrival order, with a read cursor for
 * {@link #take(Duration)}. All methods are synchronized; waiters are woken on each arrival.
 */
final class RequestJournal {

    private final List<RecordedRequest> recorded = new ArrayList<>();
    private int nextToTake;

    /** Records the request built by {@code factory} from its 1-based sequence number. */
    synchronized RecordedRequest record(IntFunction<RecordedRequest> factory) {
        RecordedRequest request = factory.apply(recorded.size() + 1);
        recorded.add(request);
        notifyAll();
        return request;
    }

    synchronized List<RecordedRequest> snapshot() {
        return List.copyOf(recorded);
    }

    synchronized int size() {
        return recorded.size();
    }

    synchronized RecordedRequest take(Duration timeout) {
        awaitSize(nextToTake + 1, timeout);
        return recorded.get(nextToTake++);
    }

    synchronized List<RecordedRequest> awaitCount(int count, Duration timeout) {
        awaitSize(count, timeout);
        return List.copyOf(recorded);
    }

    synchronized void clear() {
        recorded.clear();
        nextToTake = 0;
    }

    private void awaitSize(int size, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            while (recorded.size() < size) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new AssertionError("expected request #" + size + " within " + timeout
                            + " but only " + recorded.size() + " arrived: " + recorded);
                }
                TimeUnit.NANOSECONDS.timedWait(this, left);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for request #" + size, e);
        }
    }
}
