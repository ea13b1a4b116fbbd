package io.tollgate.servlet;

import jakarta.servlet.http.HttpServletRequest;

/** The OpenAI-shaped answers the test app gives, with the usage a test asks for. */
final class ChatAnswers {

  private ChatAnswers() {}

  /** The bound tenant as a response header can show it: hostile ids (long, control characters) are not echoed. */
  static String tenantHeader() {
    String tenant = io.tollgate.gate.Tenants.current().orElse("(none)");
    return tenant.length() <= 200 && tenant.chars().allMatch(c -> c >= 0x20 && c < 0x7f) ? tenant : "(not printable)";
  }

  /** {@code x-test-usage: prompt,completion}; 11 and 7 unless told. */
  static long[] usage(HttpServletRequest req) {
    String asked = req.getHeader("x-test-usage");
    if (asked == null) {
      return new long[] {11, 7};
    }
    String[] parts = asked.split(",");
    return new long[] {Long.parseLong(parts[0].trim()), Long.parseLong(parts[1].trim())};
  }

  static String completion(long[] usage, boolean withUsage) {
    return "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"model\":\"gpt-4o-2024-08-06\","
        + "\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"Hello!\"},"
        + "\"finish_reason\":\"stop\"}]"
        + (withUsage ? ",\"usage\":{\"prompt_tokens\":" + usage[0] + ",\"completion_tokens\":" + usage[1]
            + ",\"total_tokens\":" + (usage[0] + usage[1]) + "}" : "")
        + "}";
  }

  static String chunk(String content) {
    return "data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"model\":\"gpt-4o-2024-08-06\","
        + "\"choices\":[{\"index\":0,\"delta\":{\"content\":\"" + content + "\"},\"finish_reason\":null}]}\n\n";
  }

  static String usageChunk(long[] usage) {
    return "data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"model\":\"gpt-4o-2024-08-06\","
        + "\"choices\":[],\"usage\":{\"prompt_tokens\":" + usage[0] + ",\"completion_tokens\":" + usage[1]
        + ",\"total_tokens\":" + (usage[0] + usage[1]) + "}}\n\n";
  }
}
