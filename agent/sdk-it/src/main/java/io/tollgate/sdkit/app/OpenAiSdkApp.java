package io.tollgate.sdkit.app;

import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.http.StreamResponse;
import com.openai.errors.OpenAIServiceException;
import com.openai.models.ChatModel;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.chat.completions.ChatCompletionStreamOptions;
import com.openai.models.completions.CompletionUsage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/** The official OpenAI Java SDK ({@code com.openai:openai-java}, on OkHttp 4). */
public final class OpenAiSdkApp extends SdkApp {

  private final OpenAIClient client = OpenAIOkHttpClient.builder()
      .baseUrl(env("PROVIDER_URL") + "/v1")
      .apiKey(env("APP_KEY"))
      .maxRetries(0) // a 429 reaches the app as the SDK reports it, not after its own retries
      .build();

  public static void main(String[] args) {
    OpenAiSdkApp app = new OpenAiSdkApp();
    app.run(args);
    app.client.close();
  }

  @Override
  protected Reply chat() {
    return reply(client.chat().completions().create(params().build()));
  }

  private static Reply reply(ChatCompletion completion) {
    return new Reply(completion.model(),
        completion.choices().get(0).message().content().orElse(""),
        completion.usage().map(OpenAiSdkApp::usage).orElse("-"));
  }

  @Override
  protected Reply chatAsync() throws Exception {
    try {
      return reply(client.async().chat().completions().create(params().build())
          .get(60, TimeUnit.SECONDS));
    } catch (ExecutionException e) {
      throw e.getCause() instanceof Exception cause ? cause : e;
    }
  }

  @Override
  protected Reply stream() {
    StringBuilder text = new StringBuilder();
    String[] model = {"-"};
    String[] usage = {"-"};
    ChatCompletionCreateParams params = params()
        .streamOptions(ChatCompletionStreamOptions.builder().includeUsage(true).build())
        .build();
    try (StreamResponse<ChatCompletionChunk> chunks =
        client.chat().completions().createStreaming(params)) {
      chunks.stream().forEach(chunk -> {
        model[0] = chunk.model();
        chunk.choices().forEach(choice -> choice.delta().content().ifPresent(text::append));
        chunk.usage().ifPresent(u -> usage[0] = usage(u));
      });
    }
    return new Reply(model[0], text.toString(), usage[0]);
  }

  @Override
  protected Failure describe(Throwable failure) {
    if (failure instanceof OpenAIServiceException service) {
      return new Failure(service.statusCode(),
          service.code().orElse("-") + "/" + service.type().orElse("-"));
    }
    return new Failure(0, String.valueOf(failure.getMessage()));
  }

  private static ChatCompletionCreateParams.Builder params() {
    return ChatCompletionCreateParams.builder()
        .model(ChatModel.GPT_4O)
        .maxCompletionTokens(MAX_TOKENS)
        .addUserMessage(PROMPT);
  }

  private static String usage(CompletionUsage usage) {
    return Reply.usage(usage.promptTokens(), usage.completionTokens());
  }
}
