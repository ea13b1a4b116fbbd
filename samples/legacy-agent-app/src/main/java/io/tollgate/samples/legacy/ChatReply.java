package io.tollgate.samples.legacy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * What the app took from a response: status, the model that answered, usage, and the error type
 * of an error body. Token counts are -1 when the response reported none.
 */
record ChatReply(int status, String model, long promptTokens, long completionTokens, String error) {

  private static final ObjectMapper JSON = new ObjectMapper();

  static ChatReply failed(Exception e) {
    return new ChatReply(-1, null, -1, -1, e.getClass().getSimpleName());
  }

  /** Reads a whole response body: a JSON completion, an SSE stream of chunks, or an error. */
  static ChatReply read(int status, InputStream body, boolean stream) throws IOException {
    if (status != 200) {
      JsonNode error = parse(body.readAllBytes());
      return new ChatReply(status, null, -1, -1, error.path("error").path("type").asText("unknown"));
    }
    return stream ? readStream(body) : fromCompletion(parse(body.readAllBytes()));
  }

  private static ChatReply readStream(InputStream body) throws IOException {
    String model = null;
    ChatReply usage = null;
    BufferedReader lines = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8));
    for (String line = lines.readLine(); line != null; line = lines.readLine()) {
      if (!line.startsWith("data:")) {
        continue;
      }
      String data = line.substring(5).strip();
      if (data.equals("[DONE]")) {
        break;
      }
      JsonNode chunk = JSON.readTree(data);
      model = chunk.path("model").asText(model);
      if (chunk.hasNonNull("usage")) {
        usage = fromCompletion(chunk);
      }
    }
    return usage != null ? usage : new ChatReply(200, model, -1, -1, null);
  }

  private static ChatReply fromCompletion(JsonNode completion) {
    JsonNode usage = completion.path("usage");
    return new ChatReply(200, completion.path("model").asText(null),
        usage.path("prompt_tokens").asLong(-1), usage.path("completion_tokens").asLong(-1), null);
  }

  private static JsonNode parse(byte[] bytes) {
    try {
      return JSON.readTree(bytes);
    } catch (IOException e) {
      return JSON.createObjectNode();
    }
  }
}
