package io.tollgate.together.boot;

import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.client.RestClient;

/**
 * Forwards a chat completion to the provider, two ways: {@code /chat} through a {@code RestClient}
 * from Boot's builder, {@code /chat/raw} through a JDK {@code HttpClient} of the app's own that no
 * Spring hook sees. Nothing here knows of Tollgate.
 */
@RestController
class ChatController {

  private static final String[] PASSED_ON = {"Retry-After", "x-tollgate"};

  private final RestClient provider;
  private final HttpClient raw = HttpClient.newHttpClient();
  private final URI completions;
  private final String apiKey;
  private final Optional<InMemorySpanExporter> spans;

  ChatController(RestClient.Builder builder, @Value("${chat.upstream}") String upstream,
      @Value("${chat.api-key}") String apiKey, ObjectProvider<InMemorySpanExporter> spans) {
    this.provider = builder.baseUrl(upstream).defaultHeader("Authorization", "Bearer " + apiKey).build();
    this.completions = URI.create(upstream + "/v1/chat/completions");
    this.apiKey = apiKey;
    this.spans = Optional.ofNullable(spans.getIfAvailable());
  }

  @PostMapping("/chat")
  ResponseEntity<String> chat(@RequestBody String request) {
    return provider.post().uri("/v1/chat/completions")
        .contentType(MediaType.APPLICATION_JSON)
        .body(request)
        .exchange((sent, answer) -> {
          HttpHeaders headers = new HttpHeaders();
          for (String name : PASSED_ON) {
            String value = answer.getHeaders().getFirst(name);
            if (value != null) {
              headers.set(name, value);
            }
          }
          return ResponseEntity.status(answer.getStatusCode()).headers(headers)
              .body(new String(answer.getBody().readAllBytes(), StandardCharsets.UTF_8));
        });
  }

  @PostMapping("/chat/raw")
  ResponseEntity<String> chatRaw(@RequestBody String request) throws IOException, InterruptedException {
    HttpResponse<String> answer = raw.send(HttpRequest.newBuilder(completions)
        .header("Authorization", "Bearer " + apiKey)
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(request))
        .build(), HttpResponse.BodyHandlers.ofString());
    HttpHeaders headers = new HttpHeaders();
    for (String name : PASSED_ON) {
      answer.headers().firstValue(name).ifPresent(value -> headers.set(name, value));
    }
    return ResponseEntity.status(answer.statusCode()).headers(headers).body(answer.body());
  }

  /** The names of the spans the app's own OpenTelemetry recorded (none without one). */
  @GetMapping("/spans")
  List<String> spans() {
    return spans.map(exporter -> exporter.getFinishedSpanItems().stream().map(SpanData::getName).toList())
        .orElse(List.of());
  }
}
