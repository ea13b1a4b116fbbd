package io.tollgate.samples.legacy;

import java.io.PrintStream;
import java.util.concurrent.atomic.AtomicInteger;

/** One thread of calls through one client: alternately plain and streamed, until time or count runs out. */
final class Worker implements Runnable {

  private final ChatClient client;
  private final int thread;
  private final AppOptions options;
  private final long deadlineNanos;
  private final PrintStream out;
  private final AtomicInteger total;

  Worker(ChatClient client, int thread, AppOptions options, long deadlineNanos, PrintStream out,
      AtomicInteger total) {
    this.client = client;
    this.thread = thread;
    this.options = options;
    this.deadlineNanos = deadlineNanos;
    this.out = out;
    this.total = total;
  }

  @Override
  public void run() {
    for (int n = 1; n <= options.callsPerThread() && System.nanoTime() < deadlineNanos; n++) {
      boolean stream = n % 2 == 0;
      ChatRequest request = new ChatRequest(client.name() + "-" + thread + "-" + n, stream,
          options.model(), options.maxTokens());
      long start = System.nanoTime();
      ChatReply reply;
      try {
        reply = client.send(request);
      } catch (Exception e) {
        reply = ChatReply.failed(e);
      }
      long millis = (System.nanoTime() - start) / 1_000_000;
      String line = CallLine.format(client.name(), request, reply, millis);
      synchronized (out) {
        out.println(line);
        out.flush();
      }
      total.incrementAndGet();
      pause();
    }
  }

  private void pause() {
    try {
      Thread.sleep(options.pause().toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
