package io.tollgate.samples.legacy;

import java.util.List;

/** One HTTP client library making the app's chat calls. */
interface ChatClient extends AutoCloseable {

  /** The {@code --clients} names, in the order they are started. */
  List<String> NAMES = List.of("okhttp", "jdk", "apache");

  static ChatClient named(String name, AppOptions options) {
    return switch (name) {
      case "okhttp" -> new OkHttpChat(options);
      case "jdk" -> new JdkHttpChat(options);
      case "apache" -> new ApacheHttpChat(options);
      default -> throw new IllegalArgumentException("unknown client " + name);
    };
  }

  String name();

  /** Sends the call and reads its whole response. */
  ChatReply send(ChatRequest request) throws Exception;

  @Override
  default void close() throws Exception {}
}
