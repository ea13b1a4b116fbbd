package io.tollgate.samples.legacy;

/**
 * The app's log line for one call, one line on stdout, {@code key=value} separated by spaces:
 * <pre>
 * call id=okhttp-1-4 client=okhttp stream=true status=200 model=gpt-4o prompt=14 completion=20 ms=231
 * call id=jdk-2-7 client=jdk stream=false status=503 model=- prompt=- completion=- ms=12 error=server_error
 * </pre>
 * {@code model} and the token counts are what the response said ({@code -} when it said nothing);
 * {@code error} is the error body's {@code error.type}, or the exception for a call that got no
 * response ({@code status=-1}).
 */
final class CallLine {

  private CallLine() {}

  static String format(String client, ChatRequest request, ChatReply reply, long millis) {
    StringBuilder line = new StringBuilder(128)
        .append("call id=").append(request.id())
        .append(" client=").append(client)
        .append(" stream=").append(request.stream())
        .append(" status=").append(reply.status())
        .append(" model=").append(orDash(reply.model()))
        .append(" prompt=").append(reply.promptTokens() < 0 ? "-" : Long.toString(reply.promptTokens()))
        .append(" completion=").append(reply.completionTokens() < 0 ? "-" : Long.toString(reply.completionTokens()))
        .append(" ms=").append(millis);
    if (reply.error() != null) {
      line.append(" error=").append(reply.error().replaceAll("\\s+", "_"));
    }
    return line.toString();
  }

  private static String orDash(String value) {
    return value == null || value.isEmpty() ? "-" : value.replaceAll("\\s+", "_");
  }
}
