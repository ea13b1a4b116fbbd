package io.tollgate.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.locks.LockSupport;
import redis.clients.jedis.UnifiedJedis;

/**
 * The steps many threads ask of a standalone Redis at once, sent as one call of their script
 * ({@link LuaScript#loadSteps}). A thread queues its step; if fewer than {@link #IN_FLIGHT} calls
 * are under way, it sends every step queued by then, its own among them, and hands each caller its
 * reply. The others wait for theirs. Redis then reads, dispatches and answers one command for the
 * batch instead of one per step, which is most of what a short step costs it; and no caller waits
 * for a timer, since a batch goes as soon as a call may.
 *
 * <p>Each step is sent once, as {@link ScriptRuns#replies} sends it; a failure of the call
 * (timeout, connection lost, a script error) is every one of its callers' failure, as it would
 * have been alone.
 */
final class SharedSteps {

  /** At most this many steps per call, so that one call stays short. */
  static final int MAX_BATCH = 64;
  /**
   * Calls under way at a time: while Redis runs one batch, the next one gathers. More would only
   * split the batches, since Redis runs scripts one at a time.
   */
  static final int IN_FLIGHT = 2;

  private final UnifiedJedis redis;
  private final Semaphore inFlight;
  private final ConcurrentLinkedQueue<Run> queued = new ConcurrentLinkedQueue<>();

  SharedSteps(UnifiedJedis redis) {
    this.redis = redis;
    this.inFlight = new Semaphore(IN_FLIGHT);
  }

  /** Runs the step {@code call} of {@code script}, with whatever steps other threads ask now. */
  Object eval(LuaScript script, RedisScripts.Call call) {
    return evalAll(script, List.of(call)).get(0);
  }

  /**
   * Runs the steps {@code calls} of {@code script}, with whatever steps other threads ask now.
   *
   * @return each step's reply, in order
   * @throws RuntimeException the first step's failure, once every step was sent
   */
  List<Object> evalAll(LuaScript script, List<RedisScripts.Call> calls) {
    List<Run> runs = new ArrayList<>(calls.size());
    for (RedisScripts.Call call : calls) {
      runs.add(new Run(script, call, Thread.currentThread()));
    }
    queued.addAll(runs);
    boolean interrupted = false;
    while (!allDone(runs)) {
      if (inFlight.tryAcquire()) {
        try {
          sendQueued();
        } finally {
          inFlight.release();
          wakeNextSender();
        }
      } else if (!allDone(runs)) {
        LockSupport.park(this);
        // the steps are under way: they end within the Redis timeout; the interrupt is kept
        interrupted |= Thread.interrupted();
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    List<Object> replies = new ArrayList<>(runs.size());
    for (Run run : runs) {
      if (run.reply instanceof RuntimeException failure) {
        throw failure;
      }
      replies.add(run.reply);
    }
    return replies;
  }

  private static boolean allDone(List<Run> runs) {
    for (Run run : runs) {
      if (!run.done) {
        return false;
      }
    }
    return true;
  }

  /** Sends what is queued now, one call per script, and hands out the replies. */
  private void sendQueued() {
    List<Run> batch = new ArrayList<>();
    for (Run run = queued.poll(); run != null; run = batch.size() < MAX_BATCH ? queued.poll() : null) {
      batch.add(run);
    }
    while (!batch.isEmpty()) {
      LuaScript script = batch.get(0).script;
      List<Run> same = batch.stream().filter(run -> run.script == script).toList();
      batch.removeAll(same);
      List<Object> replies;
      try {
        replies = ScriptRuns.replies(redis, script, same.stream().map(run -> run.call).toList());
      } catch (RuntimeException | Error failure) {
        // every caller of the batch gets the failure: none may be left waiting
        RuntimeException each = failure instanceof RuntimeException runtime
            ? runtime : new IllegalStateException("the Redis call failed", failure);
        replies = same.stream().map(run -> (Object) each).toList();
      }
      for (int i = 0; i < same.size(); i++) {
        same.get(i).finish(replies.get(i));
      }
    }
  }

  /** A step still queued once a call may go: its thread sends it (and what queued since). */
  private void wakeNextSender() {
    Run next = queued.peek();
    if (next != null) {
      LockSupport.unpark(next.thread);
    }
  }

  /** One caller's step, and its reply (a {@link RuntimeException} when it failed) once done. */
  private static final class Run {
    final LuaScript script;
    final RedisScripts.Call call;
    final Thread thread;
    Object reply;
    volatile boolean done;

    Run(LuaScript script, RedisScripts.Call call, Thread thread) {
      this.script = script;
      this.call = call;
      this.thread = thread;
    }

    void finish(Object result) {
      reply = result;
      done = true;
      if (thread != Thread.currentThread()) {
        LockSupport.unpark(thread);
      }
    }
  }
}
