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
  private final Semaphore calls;
  private final ConcurrentLinkedQueue<Run> queued = new ConcurrentLinkedQueue<>();

  SharedSteps(UnifiedJedis redis) {
    this.redis = redis;
    this.calls = new Semaphore(IN_FLIGHT);
  }

  /** Runs the step {@code call} of {@code script}, with whatever steps other threads ask now. */
  Object eval(LuaScript script, RedisScripts.Call call) {
    Run run = new Run(script, call, Thread.currentThread());
    queued.add(run);
    while (!run.done) {
      if (calls.tryAcquire()) {
        try {
          sendQueued();
        } finally {
          calls.release();
          wakeNextSender();
        }
      } else if (!run.done) {
        LockSupport.park(this);
      }
    }
    if (run.reply instanceof RuntimeException failure) {
      throw failure;
    }
    return run.reply;
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
