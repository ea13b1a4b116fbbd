package io.tollgate.together.war;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okhttp3.ResponseBody;

/**
 * An LLM-backed endpoint written the plain way: each request's chat body goes on to the provider's
 * {@code POST /v1/chat/completions} with the app's key, through OkHttp ({@code /chat/okhttp}) or
 * the JDK's {@code HttpClient} ({@code /chat/jdk}), and the provider's answer comes back: its
 * status, its {@code x-tollgate} and {@code Retry-After} headers when present, its content type and
 * body.
 *
 * <p>Nothing here knows Tollgate: the filter in front charges the caller's tenant, and the agent,
 * when attached, limits and reroutes the outbound calls.
 *
 * <p>The provider is the system property {@code chat.upstream} or the variable {@code
 * CHAT_UPSTREAM} (default {@code https://api.openai.com}); the key {@code chat.api-key} or {@code
 * CHAT_API_KEY}.
 */
public class ChatRelayServlet extends HttpServlet {

  private static final MediaType JSON = MediaType.get("application/json");
  private static final Duration TIMEOUT = Duration.ofSeconds(30);
  /** The provider's headers handed back; the filter's own {@code x-ratelimit-*} stay as it set them. */
  private static final List<String> RELAYED = List.of("x-tollgate", "Retry-After");

  private URI completions;
  private Optional<String> apiKey;
  private OkHttpClient okHttp;
  private HttpClient jdk;

  @Override
  public void init() {
    String upstream = setting("chat.upstream", "CHAT_UPSTREAM").orElse("https://api.openai.com");
    completions = URI.create(upstream.replaceAll("/+$", "") + "/v1/chat/completions");
    apiKey = setting("chat.api-key", "CHAT_API_KEY");
    okHttp = new OkHttpClient.Builder().callTimeout(TIMEOUT).build();
    jdk = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(TIMEOUT).build();
  }

  @Override
  public void destroy() {
    okHttp.dispatcher().executorService().shutdown();
    okHttp.connectionPool().evictAll();
  }

  @Override
  protected void doPost(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    byte[] chat = req.getInputStream().readAllBytes();
    String client = req.getPathInfo() == null ? "" : req.getPathInfo();
    Answer answer;
    try {
      answer = switch (client) {
        case "/okhttp" -> throughOkHttp(chat);
        case "/jdk" -> throughJdk(chat);
        default -> null;
      };
    } catch (IOException e) {
      resp.sendError(HttpServletResponse.SC_BAD_GATEWAY, "provider unreachable: " + e);
      return;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      resp.sendError(HttpServletResponse.SC_SERVICE_UNAVAILABLE);
      return;
    }
    if (answer == null) {
      resp.sendError(HttpServletResponse.SC_NOT_FOUND, "POST /chat/okhttp or /chat/jdk");
      return;
    }
    resp.setStatus(answer.status());
    answer.headers().forEach(resp::setHeader);
    answer.contentType().ifPresent(resp::setContentType);
    resp.getOutputStream().write(answer.body());
  }

  private Answer throughOkHttp(byte[] chat) throws IOException {
    Request.Builder request = new Request.Builder().url(completions.toString())
        .post(RequestBody.create(chat, JSON));
    apiKey.ifPresent(key -> request.header("Authorization", "Bearer " + key));
    try (Response response = okHttp.newCall(request.build()).execute()) {
      ResponseBody body = response.body();
      return new Answer(response.code(), Optional.ofNullable(response.header("Content-Type")),
          relayed(name -> Optional.ofNullable(response.header(name))),
          body == null ? new byte[0] : body.bytes());
    }
  }

  private Answer throughJdk(byte[] chat) throws IOException, InterruptedException {
    HttpRequest.Builder request = HttpRequest.newBuilder(completions).timeout(TIMEOUT)
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofByteArray(chat));
    apiKey.ifPresent(key -> request.header("Authorization", "Bearer " + key));
    HttpResponse<byte[]> response = jdk.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    return new Answer(response.statusCode(), response.headers().firstValue("Content-Type"),
        relayed(name -> response.headers().firstValue(name)), response.body());
  }

  private static Map<String, String> relayed(Function<String, Optional<String>> header) {
    Map<String, String> relayed = new LinkedHashMap<>();
    for (String name : RELAYED) {
      header.apply(name).ifPresent(value -> relayed.put(name, value));
    }
    return relayed;
  }

  private static Optional<String> setting(String property, String variable) {
    return Optional.ofNullable(System.getProperty(property))
        .or(() -> Optional.ofNullable(System.getenv(variable)))
        .filter(value -> !value.isBlank());
  }

  private record Answer(int status, Optional<String> contentType, Map<String, String> headers,
      byte[] body) {}
}
