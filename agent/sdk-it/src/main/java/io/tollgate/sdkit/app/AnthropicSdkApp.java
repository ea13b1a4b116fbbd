package io.tollgate.sdkit.app;

import com.anthropic.client.AnthropicClient;
import com.anthropic.client.okhttp.AnthropicOkHttpClient;
import com.anthropic.core.http.StreamResponse;
import com.anthropic.errors.AnthropicServiceException;
import com.anthropic.models.messages.Message;
import com.anthropic.models.messages.MessageCreateParams;
import com.anthropic.models.messages.RawMessageStreamEvent;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/** The official Anthropic Java SDK ({@code com.anthropic:anthropic-java}, on OkHttp 4). */
public final class AnthropicSdkApp extends SdkApp {

  /** The model the app asks for. */
  public static final String MODEL = "claude-sonnet-4-5";

  private final AnthropicClient client = AnthropicOkHttpClient.builder()
      .baseUrl(env("PROVIDER_URL"))
      .apiKey(env("APP_KEY"))
      .maxRetries(0) // a 429 reaches the app as the SDK reports it, not after its own retries
      .build();

  public static void main(String[] args) {
    AnthropicSdkApp app = new AnthropicSdkApp();
    app.run(args);
    app.client.close();
  }

  @Override
  protected Reply chat() {
    return reply(client.messages().create(params()));
  }

  @Override
  protected Reply chatAsync() throws Exception {
    try {
      return reply(client.async().messages().create(params()).get(60, TimeUnit.SECONDS));
    } catch (ExecutionException e) {
      throw e.getCause() instanceof Exception cause ? cause : e;
    }
  }

  private static Reply reply(Message message) {
    String text = message.content().stream()
        .flatMap(block -> block.text().stream())
        .map(textBlock -> textBlock.text())
        .collect(Collectors.joining());
    return new Reply(message.model().asString(), text,
        Reply.usage(message.usage().inputTokens(), message.usage().outputTokens()));
  }

  @Override
  protected Reply stream() {
    StringBuilder text = new StringBuilder();
    String[] model = {"-"};
    long[] tokens = {-1, -1};
    try (StreamResponse<RawMessageStreamEvent> events = client.messages().createStreaming(params())) {
      events.stream().forEach(event -> {
        event.messageStart().ifPresent(start -> {
          model[0] = start.message().model().asString();
          tokens[0] = start.message().usage().inputTokens();
        });
        event.contentBlockDelta().ifPresent(delta -> delta.delta().text()
            .ifPresent(piece -> text.append(piece.text())));
        event.messageDelta().ifPresent(delta -> tokens[1] = delta.usage().outputTokens());
      });
    }
    return new Reply(model[0], text.toString(), Reply.usage(tokens[0], tokens[1]));
  }

  @Override
  protected Failure describe(Throwable failure) {
    if (failure instanceof AnthropicServiceException service) {
      return new Failure(service.statusCode(),
          service.errorType().map(Object::toString).orElse("-"));
    }
    return new Failure(0, String.valueOf(failure.getMessage()));
  }

  private static MessageCreateParams params() {
    return MessageCreateParams.builder()
        .model(MODEL)
        .maxTokens(MAX_TOKENS)
        .addUserMessage(PROMPT)
        .build();
  }

}
