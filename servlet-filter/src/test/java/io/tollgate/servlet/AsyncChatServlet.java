package io.tollgate.servlet;

import io.tollgate.gate.Tenants;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An asynchronous LLM-backed endpoint, by {@code ?mode=}: {@code thread} answers from a thread of
 * its own through {@code AsyncContext.getResponse()}; {@code start} from {@code AsyncContext.start};
 * {@code dispatch} dispatches to {@code /tenant}; {@code nonblocking} reads the body with a
 * {@link ReadListener} first; {@code listener} also records the tenant its AsyncListener sees.
 */
public class AsyncChatServlet extends HttpServlet {

  /** What the AsyncListener of a {@code listener} request saw, by {@code x-test-id}. */
  static final Map<String, CompletableFuture<String>> LISTENER_TENANTS = new ConcurrentHashMap<>();

  @Override
  protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    String mode = req.getParameter("mode") == null ? "thread" : req.getParameter("mode");
    long[] usage = ChatAnswers.usage(req);
    if (!mode.equals("nonblocking")) {
      req.getInputStream().readAllBytes();
    }
    AsyncContext async = req.startAsync();
    switch (mode) {
      case "thread" -> new Thread(() -> answer(async, usage, "thread")).start();
      case "start" -> async.start(() -> answer(async, usage, "start"));
      case "dispatch" -> async.dispatch("/tenant/after-dispatch");
      case "listener" -> {
        CompletableFuture<String> seen = LISTENER_TENANTS.computeIfAbsent(req.getHeader("x-test-id"),
            id -> new CompletableFuture<>());
        async.addListener(new AsyncListener() {
          @Override
          public void onComplete(AsyncEvent event) {
            seen.complete(Tenants.current().orElse("(none)"));
          }

          @Override
          public void onTimeout(AsyncEvent event) {}

          @Override
          public void onError(AsyncEvent event) {}

          @Override
          public void onStartAsync(AsyncEvent event) {}
        });
        async.start(() -> answer(async, usage, "listener"));
      }
      case "nonblocking" -> readThenAnswer(req, async, usage);
      default -> throw new IllegalArgumentException(mode);
    }
  }

  private static void readThenAnswer(HttpServletRequest req, AsyncContext async, long[] usage) throws IOException {
    ServletInputStream in = req.getInputStream();
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    in.setReadListener(new ReadListener() {
      @Override
      public void onDataAvailable() throws IOException {
        byte[] buffer = new byte[8192];
        while (in.isReady() && !in.isFinished()) {
          int n = in.read(buffer);
          if (n > 0) {
            body.write(buffer, 0, n);
          }
        }
      }

      @Override
      public void onAllDataRead() {
        HttpServletResponse resp = (HttpServletResponse) async.getResponse();
        resp.setHeader("x-body-length", Integer.toString(body.size()));
        resp.setHeader("x-body-sha256", java.util.HexFormat.of().formatHex(
            EchoServlet.sha256().digest(body.toByteArray())));
        answer(async, usage, "nonblocking");
      }

      @Override
      public void onError(Throwable t) {
        async.complete();
      }
    });
  }

  private static void answer(AsyncContext async, long[] usage, String how) {
    try {
      HttpServletResponse resp = (HttpServletResponse) async.getResponse();
      resp.setHeader("x-answered-by", how);
      resp.setHeader("x-tenant", ChatAnswers.tenantHeader());
      resp.setContentType("application/json");
      resp.getOutputStream().write(ChatAnswers.completion(usage, true).getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new IllegalStateException(e);
    } finally {
      async.complete();
    }
  }
}
