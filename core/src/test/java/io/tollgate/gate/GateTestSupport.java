package io.tollgate.gate;

import io.tollgate.config.TollgateConfig;
import io.tollgate.config.TollgateConfigLoader;
import io.tollgate.llm.Headers;
import io.tollgate.router.OutboundRequest;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Builders shared by the gate's tests. */
final class GateTestSupport {

  static final String CHAT = "{\"model\":\"gpt-4o\",\"max_tokens\":50,"
      + "\"messages\":[{\"role\":\"user\",\"content\":\"Say hello\"}]}";
  static final String STREAMED_CHAT = "{\"model\":\"gpt-4o\",\"max_tokens\":50,\"stream\":true,"
      + "\"stream_options\":{\"include_usage\":true},"
      + "\"messages\":[{\"role\":\"user\",\"content\":\"Say hello\"}]}";

  private GateTestSupport() {}

  static TollgateConfig config(String yaml, Map<String, String> environment) {
    return TollgateConfigLoader.builder().environment(environment).build().fromYaml(yaml);
  }

  static OutboundRequest chat(String baseUrl, String apiKey, String body) {
    return OutboundRequest.of("POST", URI.create(baseUrl + "/v1/chat/completions"),
        Headers.of("Authorization", "Bearer " + apiKey, "Content-Type", "application/json"),
        body.getBytes(StandardCharsets.UTF_8));
  }

  /** Reads a forwarded body the way an app would, through the usage observer. */
  static String readBody(CallResult<HttpResponse<InputStream>> result) throws IOException {
    CallResult.Forwarded<HttpResponse<InputStream>> forwarded =
        (CallResult.Forwarded<HttpResponse<InputStream>>) result;
    try (InputStream body = forwarded.usage().wrap(forwarded.response().body())) {
      return new String(body.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  /**
   * The statuses of {@code count} calls of {@code request} through {@code gate}, each as
   * {@code tenant} (none when null), each body read as an app would.
   */
  static List<Integer> statuses(Gate gate, JdkTransport transport, OutboundRequest request,
      String tenant, int count) throws IOException {
    List<Integer> statuses = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      try (Tenants.Scope bound = tenant == null ? () -> { } : Tenants.bind(tenant)) {
        var result = gate.call(request, true, transport);
        if (result instanceof CallResult.Forwarded<HttpResponse<InputStream>>) {
          readBody(result);
        }
        statuses.add(status(result));
      }
    }
    return statuses;
  }

  static int status(CallResult<HttpResponse<InputStream>> result) {
    if (result instanceof CallResult.Forwarded<HttpResponse<InputStream>> forwarded) {
      return forwarded.response().statusCode();
    }
    return ((CallResult.Synthetic<HttpResponse<InputStream>>) result).response().status();
  }
}
