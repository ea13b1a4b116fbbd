package io.tollgate.sdkit.app;

import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.exception.HttpException;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.chat.response.StreamingChatResponseHandler;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.langchain4j.model.openai.OpenAiStreamingChatModel;
import dev.langchain4j.model.output.TokenUsage;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * LangChain4j's OpenAI models ({@code dev.langchain4j:langchain4j-open-ai}), on its default HTTP
 * client, the JDK's {@code HttpClient}.
 */
public final class LangChain4jApp extends SdkApp {

  private final OpenAiChatModel chat = OpenAiChatModel.builder()
      .baseUrl(env("PROVIDER_URL") + "/v1")
      .apiKey(env("APP_KEY"))
      .modelName("gpt-4o")
      .maxCompletionTokens(MAX_TOKENS)
      .maxRetries(0) // a 429 reaches the app as LangChain4j reports it, not after its retries
      .build();
  private final OpenAiStreamingChatModel streaming = OpenAiStreamingChatModel.builder()
      .baseUrl(env("PROVIDER_URL") + "/v1")
      .apiKey(env("APP_KEY"))
      .modelName("gpt-4o")
      .maxCompletionTokens(MAX_TOKENS)
      .build();

  public static void main(String[] args) {
    new LangChain4jApp().run(args);
  }

  @Override
  protected Reply chat() {
    return reply(chat.chat(ChatRequest.builder().messages(UserMessage.from(PROMPT)).build()), null);
  }

  @Override
  protected Reply stream() throws Exception {
    StringBuilder text = new StringBuilder();
    CompletableFuture<ChatResponse> done = new CompletableFuture<>();
    streaming.chat(PROMPT, new StreamingChatResponseHandler() {
      @Override
      public void onPartialResponse(String partial) {
        text.append(partial);
      }

      @Override
      public void onCompleteResponse(ChatResponse response) {
        done.complete(response);
      }

      @Override
      public void onError(Throwable error) {
        done.completeExceptionally(error);
      }
    });
    return reply(done.get(60, TimeUnit.SECONDS), text.toString());
  }

  @Override
  protected Failure describe(Throwable failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof HttpException http) {
        // LangChain4j hands over the error body as the exception's message
        return new Failure(http.statusCode(), openAiErrorCode(http.getMessage()));
      }
    }
    return new Failure(0, String.valueOf(failure.getMessage()));
  }

  /** The response's text, or {@code streamed} (what the app saw arrive) when given. */
  private static Reply reply(ChatResponse response, String streamed) {
    TokenUsage usage = response.tokenUsage();
    return new Reply(response.modelName(),
        streamed != null ? streamed : response.aiMessage().text(),
        usage == null ? "-" : Reply.usage(usage.inputTokenCount(), usage.outputTokenCount()));
  }
}
