package io.tollgate.sdkit.app;

import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.ai.chat.metadata.Usage;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.openai.OpenAiChatModel;
import org.springframework.ai.openai.OpenAiChatOptions;
import org.springframework.ai.openai.api.OpenAiApi;
import org.springframework.retry.support.RetryTemplate;

/**
 * Spring AI's OpenAI chat model ({@code org.springframework.ai:spring-ai-openai}) without Spring
 * Boot: {@code call} through Spring's {@code RestClient}, {@code stream} through its
 * {@code WebClient}, both on the JDK's {@code HttpClient} (no Reactor Netty on the class path).
 */
public final class SpringAiApp extends SdkApp {

  /** Spring AI reports an error response as {@code "HTTP 429 - <body>"}; the app reads both. */
  private static final Pattern STATUS = Pattern.compile("\\b([45]\\d\\d)\\b");

  private final OpenAiChatModel model = OpenAiChatModel.builder()
      .openAiApi(OpenAiApi.builder().baseUrl(env("PROVIDER_URL")).apiKey(env("APP_KEY")).build())
      .defaultOptions(OpenAiChatOptions.builder().model("gpt-4o").maxCompletionTokens(MAX_TOKENS).build())
      // a 429 reaches the app as Spring AI reports it, not after its retries
      .retryTemplate(RetryTemplate.builder().maxAttempts(1).build())
      .build();

  public static void main(String[] args) {
    new SpringAiApp().run(args);
  }

  @Override
  protected Reply chat() {
    ChatResponse response = model.call(new Prompt(PROMPT));
    return new Reply(response.getMetadata().getModel(), response.getResult().getOutput().getText(),
        usage(response));
  }

  @Override
  protected Reply stream() {
    List<ChatResponse> parts = model
        .stream(new Prompt(PROMPT, OpenAiChatOptions.builder().streamUsage(true).build()))
        .collectList()
        .block(Duration.ofSeconds(60));
    StringBuilder text = new StringBuilder();
    String modelName = "-";
    for (ChatResponse part : parts) {
      if (part.getResult() != null && part.getResult().getOutput().getText() != null) {
        text.append(part.getResult().getOutput().getText());
      }
      if (part.getMetadata().getModel() != null && !part.getMetadata().getModel().isEmpty()) {
        modelName = part.getMetadata().getModel();
      }
    }
    return new Reply(modelName, text.toString(), usage(parts.get(parts.size() - 1)));
  }

  @Override
  protected Failure describe(Throwable failure) {
    String message = String.valueOf(failure.getMessage());
    Matcher status = STATUS.matcher(message);
    return new Failure(status.find() ? Integer.parseInt(status.group(1)) : 0,
        openAiErrorCode(message));
  }

  private static String usage(ChatResponse response) {
    Usage usage = response.getMetadata().getUsage();
    return usage == null ? "-" : Reply.usage(usage.getPromptTokens(), usage.getCompletionTokens());
  }
}
