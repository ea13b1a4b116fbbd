package io.tollgate.gate;

import io.tollgate.llm.LlmProtocol;
import io.tollgate.llm.LlmRequest;
import io.tollgate.llm.ProviderApi;
import io.tollgate.llm.Usage;
import io.tollgate.llm.UsageTap;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.Set;

/**
 * Reads a made-up request and reply of each API the providers speak, once, on a daemon thread of
 * its own, as a gate is built. The JSON parser, the request and reply readers and the tokenizer's
 * first count are then loaded and run before the app's first call, which would otherwise pay for
 * them on its own thread, in a JVM that has just started. Nothing is sent, limited or
 * recorded.
 */
final class FirstCallRehearsal {

  private static final byte[] CHAT = bytes("{\"model\":\"gpt-4o\",\"max_tokens\":1,"
      + "\"messages\":[{\"role\":\"user\",\"content\":\"warm up\"}]}");
  private static final byte[] CHAT_REPLY = bytes("{\"id\":\"r\",\"choices\":[{\"index\":0,"
      + "\"message\":{\"role\":\"assistant\",\"content\":\"ok\"},\"finish_reason\":\"stop\"}],"
      + "\"usage\":{\"prompt_tokens\":9,\"completion_tokens\":1,\"total_tokens\":10}}");
  private static final byte[] MESSAGES = bytes("{\"model\":\"claude-sonnet-4-5\",\"max_tokens\":1,"
      + "\"messages\":[{\"role\":\"user\",\"content\":\"warm up\"}]}");
  private static final byte[] MESSAGES_REPLY = bytes("{\"id\":\"r\",\"type\":\"message\","
      + "\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"ok\"}],"
      + "\"usage\":{\"input_tokens\":9,\"output_tokens\":1}}");

  private FirstCallRehearsal() {}

  /** Rehearses each of {@code apis} on a daemon thread; returns that thread, none for no API. */
  static Optional<Thread> start(Set<ProviderApi> apis, long defaultMaxOutput) {
    if (apis.isEmpty()) {
      return Optional.empty(); // a gate without providers: no call will ever need it
    }
    Thread rehearsal = new Thread(() -> {
      try {
        apis.forEach(api -> rehearse(api, defaultMaxOutput));
      } catch (RuntimeException | LinkageError e) {
        // only time is lost: the first real call runs the same code and reports its own failures
      }
    }, "tollgate-first-call-warm-up");
    rehearsal.setDaemon(true);
    rehearsal.start();
    return Optional.of(rehearsal);
  }

  /** Reads the made-up request and reply of {@code api}; returns the usage read from the reply. */
  static Usage rehearse(ProviderApi api, long defaultMaxOutput) {
    LlmProtocol protocol = LlmProtocol.of(api);
    boolean anthropic = api == ProviderApi.ANTHROPIC;
    LlmRequest request = protocol.readRequest(path(api), anthropic ? MESSAGES : CHAT,
        defaultMaxOutput);
    UsageTap tap = protocol.newUsageTap("application/json", request);
    byte[] reply = anthropic ? MESSAGES_REPLY : CHAT_REPLY;
    tap.onBytes(reply, 0, reply.length);
    tap.onEnd();
    return tap.result();
  }

  private static String path(ProviderApi api) {
    return switch (api) {
      case OPENAI -> "/v1/chat/completions";
      case AZURE_OPENAI -> "/openai/deployments/gpt-4o/chat/completions?api-version=2024-10-21";
      case ANTHROPIC -> "/v1/messages";
    };
  }

  private static byte[] bytes(String json) {
    return json.getBytes(StandardCharsets.UTF_8);
  }
}
