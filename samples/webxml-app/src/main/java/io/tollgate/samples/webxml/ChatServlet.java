package io.tollgate.samples.webxml;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * A stand-in for an LLM-backed endpoint: answers every POST like OpenAI's chat completions, with a
 * fixed {@code usage} block that {@code TollgateFilter} settles the tenant's tokens with.
 */
public class ChatServlet extends HttpServlet {

  static final int PROMPT_TOKENS = 12;
  static final int COMPLETION_TOKENS = 9;

  @Override
  protected void doPost(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    req.getInputStream().readAllBytes();
    resp.setStatus(200);
    resp.setContentType("application/json");
    resp.setCharacterEncoding("UTF-8");
    String body = "{\"id\":\"chatcmpl-sample\",\"object\":\"chat.completion\",\"created\":1700000000,"
        + "\"model\":\"gpt-4o-mini\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\","
        + "\"content\":\"Hello from behind the tollgate.\"},\"finish_reason\":\"stop\"}],"
        + "\"usage\":{\"prompt_tokens\":" + PROMPT_TOKENS
        + ",\"completion_tokens\":" + COMPLETION_TOKENS
        + ",\"total_tokens\":" + (PROMPT_TOKENS + COMPLETION_TOKENS) + "}}";
    resp.getOutputStream().write(body.getBytes(StandardCharsets.UTF_8));
  }
}
