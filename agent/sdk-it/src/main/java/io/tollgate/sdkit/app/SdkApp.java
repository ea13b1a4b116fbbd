package io.tollgate.sdkit.app;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What every app of this module does, each through its own SDK or framework and nothing of
 * Tollgate: the steps named by its arguments ({@code chat}, {@code stream}), one line each on
 * stdout, in order:
 *
 * <pre>
 * step N chat ok model=gpt-4o usage=12/20 text=Hello there
 * step N chat error status=429 type=RateLimitException detail=rate_limit_exceeded
 * </pre>
 *
 * {@code usage} is what the SDK parsed ({@code -} when it saw none), {@code status} the HTTP status
 * the SDK reports with its exception, {@code detail} what it parsed out of the error body. The
 * provider's base URL and the app's key come from {@code PROVIDER_URL} and {@code APP_KEY}, as an
 * app's configuration would give them.
 */
public abstract class SdkApp {

  /** The prompt of every step. */
  public static final String PROMPT = "Say hello to the agent";
  /** The output cap every step asks for. */
  public static final int MAX_TOKENS = 300;

  private static final Pattern OPENAI_ERROR_CODE = Pattern.compile("\"code\"\\s*:\\s*\"([^\"]+)\"");

  /** What one step got back from the SDK. */
  protected record Reply(String model, String text, String usage) {
    static String usage(Number prompt, Number completion) {
      return prompt + "/" + completion;
    }
  }

  /** What the SDK's exception tells: HTTP status (0 when it has none) and the parsed error. */
  protected record Failure(int status, String detail) {}

  protected abstract Reply chat() throws Exception;

  protected abstract Reply stream() throws Exception;

  /** A chat through the SDK's asynchronous client, its future awaited. */
  protected Reply chatAsync() throws Exception {
    throw new UnsupportedOperationException("no asynchronous client");
  }

  protected abstract Failure describe(Throwable failure);

  /** A step of the app's own beyond the chats. */
  protected Reply other(String step) throws Exception {
    throw new IllegalArgumentException("unknown step " + step);
  }

  /**
   * The {@code code} of an OpenAI error body found in {@code text} (a framework's message that
   * quotes the body), {@code -} when there is none.
   */
  protected static String openAiErrorCode(String text) {
    Matcher code = OPENAI_ERROR_CODE.matcher(String.valueOf(text));
    return code.find() ? code.group(1) : "-";
  }

  protected static String env(String name) {
    String value = System.getenv(name);
    if (value == null || value.isBlank()) {
      throw new IllegalStateException(name + " is not set");
    }
    return value;
  }

  protected final void run(String[] steps) {
    for (int i = 0; i < steps.length; i++) {
      String step = steps[i].toLowerCase(Locale.ROOT);
      String line = "step " + (i + 1) + " " + step + " ";
      try {
        Reply reply = switch (step) {
          case "chat" -> chat();
          case "stream" -> stream();
          case "async" -> chatAsync();
          default -> other(step);
        };
        line += "ok model=" + reply.model() + " usage=" + reply.usage() + " text="
            + oneLine(reply.text());
      } catch (Exception e) {
        Failure failure = describe(e);
        line += "error status=" + failure.status() + " type=" + e.getClass().getSimpleName()
            + " detail=" + oneLine(failure.detail());
      }
      System.out.println(line);
      System.out.flush();
    }
  }

  private static String oneLine(String text) {
    return text == null ? "-" : text.replace('\n', ' ').replace('\r', ' ');
  }
}
