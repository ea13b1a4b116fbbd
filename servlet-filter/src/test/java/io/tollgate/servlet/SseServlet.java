package io.tollgate.servlet;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A streamed chat completion: the first event is written and flushed, then the servlet waits until
 * the test has received it ({@link #firstEventSeen}) before writing the rest and the usage chunk.
 * {@code ?via=stream} writes through the output stream from an async thread instead of the writer.
 */
public class SseServlet extends HttpServlet {

  private static final Map<String, CountDownLatch> SEEN = new ConcurrentHashMap<>();
  /** Whether the rest was written because the client had the first event (true) or on timeout. */
  static final Map<String, Boolean> RELEASED = new ConcurrentHashMap<>();

  /** The test received the first event of request {@code id}. */
  static void firstEventSeen(String id) {
    latch(id).countDown();
  }

  private static CountDownLatch latch(String id) {
    return SEEN.computeIfAbsent(id, k -> new CountDownLatch(1));
  }

  @Override
  protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    req.getInputStream().readAllBytes();
    String id = req.getHeader("x-test-id");
    long[] usage = ChatAnswers.usage(req);
    resp.setContentType("text/event-stream");
    resp.setCharacterEncoding("UTF-8");
    if ("stream".equals(req.getParameter("via"))) {
      AsyncContext async = req.startAsync();
      async.setTimeout(30_000);
      new Thread(() -> {
        try (OutputStream out = async.getResponse().getOutputStream()) {
          events(id, usage, text -> {
            out.write(text.getBytes(StandardCharsets.UTF_8));
            out.flush();
          });
        } catch (IOException | InterruptedException e) {
          throw new IllegalStateException(e);
        } finally {
          async.complete();
        }
      }).start();
      return;
    }
    PrintWriter writer = resp.getWriter();
    try {
      events(id, usage, text -> {
        writer.write(text);
        writer.flush();
      });
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private interface Sink {
    void send(String text) throws IOException;
  }

  private static void events(String id, long[] usage, Sink sink) throws IOException, InterruptedException {
    sink.send(ChatAnswers.chunk("Hel"));
    RELEASED.put(id, latch(id).await(10, TimeUnit.SECONDS));
    sink.send(ChatAnswers.chunk("lo"));
    sink.send(ChatAnswers.usageChunk(usage));
    sink.send("data: [DONE]\n\n");
  }
}
