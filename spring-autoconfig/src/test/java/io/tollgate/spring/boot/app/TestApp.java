package io.tollgate.spring.boot.app;

import java.util.Map;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/** A Boot app serving one LLM-shaped endpoint (at an OpenAI path and at one of its own), behind the starter's filter. */
@SpringBootApplication
public class TestApp {

  /** Answers like a chat completion, with the usage the filter settles with. */
  @RestController
  static class ChatController {

    @PostMapping(path = {"/v1/chat/completions", "/chat"}, produces = "application/json")
    String complete(@RequestBody Map<String, Object> request) {
      return "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"model\":\"" + request.get("model")
          + "\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"hello\"},"
          + "\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":7,\"total_tokens\":12}}";
    }
  }
}
