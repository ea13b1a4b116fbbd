package io.tollgate.samples.springboot;

import jakarta.servlet.http.HttpServletResponse;
import java.io.OutputStream;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.client.RestClient;

/**
 * Forwards a chat completion to the provider and streams its answer back as it arrives (SSE
 * included). Nothing here knows of Tollgate: Boot's {@code RestClient.Builder} carries its
 * interceptor, and the tenant the filter resolved is charged for the call.
 */
@RestController
class ChatProxyController {

  private final RestClient provider;

  ChatProxyController(RestClient.Builder builder, @Value("${chat.upstream}") String upstream,
      @Value("${chat.api-key:}") String apiKey) {
    this.provider = builder.baseUrl(upstream)
        .defaultHeader("Authorization", "Bearer " + apiKey)
        .build();
  }

  @PostMapping("/v1/chat/completions")
  void complete(@RequestBody byte[] request, HttpServletResponse response) {
    provider.post().uri("/v1/chat/completions")
        .contentType(MediaType.APPLICATION_JSON)
        .body(request)
        .exchange((sent, answer) -> {
          response.setStatus(answer.getStatusCode().value());
          String type = answer.getHeaders().getFirst("Content-Type");
          if (type != null) {
            response.setContentType(type);
          }
          for (String name : new String[] {"Retry-After", "x-tollgate"}) {
            String value = answer.getHeaders().getFirst(name);
            if (value != null) {
              response.setHeader(name, value);
            }
          }
          OutputStream out = response.getOutputStream();
          byte[] buffer = new byte[8192];
          try (var body = answer.getBody()) {
            for (int n; (n = body.read(buffer)) >= 0; ) {
              out.write(buffer, 0, n);
              out.flush(); // each SSE event leaves as it arrives
            }
          }
          return null;
        });
  }
}
