package io.tollgate.testkit.llm;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Objects;
import java.util.Random;
import java.util.function.Supplier;

/**
 * Decides the {@link Fault} of each LLM API call a server receives. Queued faults
 * ({@link #next}) are used first, one per call, in order; when the queue is empty the standing
 * rule applies ({@link #always}, {@link #withProbability}, or no fault). Calls rejected before
 * any work (bad key, missing parameter) and non-API requests draw nothing.
 *
 * <p>Thread-safe: each call draws exactly one fault, atomically.
 */
public final class FaultScript {

    private static final Supplier<Fault> NO_FAULT = Fault::none;

    private final Deque<Fault> queued = new ArrayDeque<>();
    private Supplier<Fault> standingRule = NO_FAULT;

    FaultScript() {
    }

    /** Queues {@code fault} for the next {@code count} calls (after those already queued). */
    public synchronized FaultScript next(int count, Fault fault) {
        Objects.requireNonNull(fault, "fault");
        if (count < 1) {
            throw new IllegalArgumentException("count must be >= 1, was " + count);
        }
        for (int i = 0; i < count; i++) {
            queued.addLast(fault);
        }
        return this;
    }

    /** Applies {@code fault} to every call once the queue is empty, replacing the standing rule. */
    public synchronized FaultScript always(Fault fault) {
        Objects.requireNonNull(fault, "fault");
        standingRule = () -> fault;
        return this;
    }

    /** Shorthand for {@code next(successes, Fault.none()).always(fault)}: a provider that works, then breaks. */
    public synchronized FaultScript afterSuccesses(int successes, Fault fault) {
        return next(successes, Fault.none()).always(fault);
    }

    /**
     * Once the queue is empty, applies {@code fault} to each call with {@code probability}, drawn
     * from a {@link Random} seeded with {@code seed} so a sequential run is repeatable. Replaces
     * the standing rule.
     */
    public synchronized FaultScript withProbability(double probability, long seed, Fault fault) {
        Objects.requireNonNull(fault, "fault");
        if (!(probability >= 0 && probability <= 1)) {
            throw new IllegalArgumentException("probability must be within 0..1, was " + probability);
        }
        Random random = new Random(seed);
        standingRule = () -> random.nextDouble() < probability ? fault : Fault.none();
        return this;
    }

    /** Drops the queue and the standing rule: every call succeeds again. */
    public synchronized FaultScript clear() {
        queued.clear();
        standingRule = NO_FAULT;
        return this;
    }

    /** How many queued faults are still waiting for a call. */
    public synchronized int queuedCount() {
        return queued.size();
    }

    synchronized Fault draw() {
        Fault fault = queued.pollFirst();
        return fault != null ? fault : standingRule.get();
    }
}
