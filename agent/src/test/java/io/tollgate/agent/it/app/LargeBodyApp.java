package io.tollgate.agent.it.app;

import java.util.Base64;

/**
 * An app that sends one chat request of a given size whose length it does not declare, its body
 * made as the client reads it ({@link GeneratedChat}), through the client named first; then
 * prints what it got in {@link OkHttpApp}'s format.
 *
 * <pre>
 * LargeBodyApp (okhttp|jdk|apache4|apache5) URL SIZE
 * </pre>
 *
 * Each client lives in a class of its own, loaded only when named, so that the app runs on the
 * class path of that client alone. The key sent is {@code Authorization: Bearer $APP_KEY}.
 */
public final class LargeBodyApp {

  /** What one client made of the call. */
  interface Sender {
    /** Sends the body; answers status, retry-after, content type and body. */
    Answer send(String url, long size, String key) throws Exception;
  }

  record Answer(int status, String retryAfter, String contentType, byte[] body) {}

  private LargeBodyApp() {}

  public static void main(String[] args) throws Exception {
    System.out.println("app started");
    String client = args[0];
    String type = switch (client) {
      case "okhttp" -> "LargeBodyOkHttp";
      case "jdk" -> "LargeBodyJdk";
      case "apache4" -> "LargeBodyApache4";
      case "apache5" -> "LargeBodyApache5";
      default -> throw new IllegalArgumentException("no client " + client);
    };
    Sender sender = (Sender) Class.forName(LargeBodyApp.class.getPackageName() + "." + type)
        .getDeclaredConstructor().newInstance();
    Answer answer = sender.send(args[1], Long.parseLong(args[2]),
        System.getenv().getOrDefault("APP_KEY", "app-key"));
    System.out.println("call 1 " + client + " status=" + answer.status()
        + " retry-after=" + orDash(answer.retryAfter())
        + " content-type=" + orDash(answer.contentType())
        + " body=" + Base64.getEncoder().encodeToString(answer.body()));
    System.out.println("app done");
  }

  private static String orDash(String value) {
    return value == null ? "-" : value;
  }
}
