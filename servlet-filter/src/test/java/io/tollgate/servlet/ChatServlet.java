package io.tollgate.servlet;

import io.tollgate.limiter.Decision;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;

/**
 * An LLM-backed endpoint answering like OpenAI's chat completions: JSON with {@code usage} (from
 * {@code x-test-usage}), none with {@code x-test-no-usage}, the status of {@code x-test-status},
 * through the writer or, with {@code x-test-write: stream}, the output stream. It shows the tenant
 * bound in {@code x-tenant}, and the user bound inside it in {@code x-user}.
 */
public class ChatServlet extends HttpServlet {

  @Override
  protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    req.getInputStream().readAllBytes();
    resp.setHeader("x-tenant", ChatAnswers.tenantHeader());
    io.tollgate.gate.Tenants.currentUser().ifPresent(user -> resp.setHeader("x-user", user));
    Object decision = req.getAttribute(TollgateFilter.DECISION_ATTRIBUTE);
    resp.setHeader("x-test-decision",
        decision instanceof Decision d ? d.outcome().toString() : "(none)");
    String status = req.getHeader("x-test-status");
    resp.setStatus(status == null ? 200 : Integer.parseInt(status));
    resp.setContentType("application/json");
    String body = status != null && !status.startsWith("2")
        ? "{\"error\":{\"message\":\"upstream failed\",\"type\":\"server_error\",\"param\":null,\"code\":null}}"
        : ChatAnswers.completion(ChatAnswers.usage(req), req.getHeader("x-test-no-usage") == null);
    if ("stream".equals(req.getHeader("x-test-write"))) {
      resp.getOutputStream().write(body.getBytes(StandardCharsets.UTF_8));
    } else {
      PrintWriter writer = resp.getWriter();
      writer.print(body);
    }
  }
}
