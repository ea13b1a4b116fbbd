package io.tollgate.samples.legacy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;

/**
 * One chat completion call. Its id goes out as {@code X-Request-Id}, the correlation header such
 * apps send so that a call can be found in the provider's and proxies' logs.
 */
record ChatRequest(String id, boolean stream, String model, int maxTokens) {

  static final String ID_HEADER = "X-Request-Id";
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The OpenAI chat completions body; a stream asks for the final usage chunk. */
  byte[] body() {
    ObjectNode body = JSON.createObjectNode();
    body.put("model", model);
    ObjectNode message = body.putArray("messages").addObject();
    message.put("role", "user");
    message.put("content", "Summarise ticket " + id + " in one sentence for the support dashboard.");
    body.put("max_tokens", maxTokens);
    if (stream) {
      body.put("stream", true);
      body.putObject("stream_options").put("include_usage", true);
    }
    return body.toString().getBytes(StandardCharsets.UTF_8);
  }
}
