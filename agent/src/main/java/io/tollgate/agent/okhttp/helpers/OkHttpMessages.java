package io.tollgate.agent.okhttp.helpers;

import io.tollgate.llm.Headers;

/** Between OkHttp's header and status types and the core's. */
final class OkHttpMessages {

  private OkHttpMessages() {}

  /** In order, names as written. */
  static Headers fromOkHttp(okhttp3.Headers headers) {
    Headers.Builder builder = Headers.builder();
    for (int i = 0, size = headers.size(); i < size; i++) {
      builder.add(headers.name(i), headers.value(i));
    }
    return builder.build();
  }

  static okhttp3.Headers toOkHttp(Headers headers) {
    okhttp3.Headers.Builder builder = new okhttp3.Headers.Builder();
    for (Headers.Field field : headers.fields()) {
      builder.add(field.name(), field.value());
    }
    return builder.build();
  }

  /** The reason phrase of the statuses Tollgate answers with. */
  static String reason(int status) {
    switch (status) {
      case 429:
        return "Too Many Requests";
      case 503:
        return "Service Unavailable";
      case 529:
        return "Overloaded";
      case 500:
        return "Internal Server Error";
      case 502:
        return "Bad Gateway";
      case 504:
        return "Gateway Timeout";
      default:
        return "";
    }
  }
}
