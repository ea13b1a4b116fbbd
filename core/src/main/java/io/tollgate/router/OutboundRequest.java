package io.tollgate.router;

import io.tollgate.llm.Headers;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.regex.Pattern;

/**
 * An HTTP request to an LLM provider as it goes on the wire: method, absolute URI, headers and a
 * body that can be sent again (empty for none). Immutable: the body is copied in and out.
 * {@link #toString()} shows neither credentials nor the body.
 *
 * <p>A request made with {@link #withStreamedBody} has a body Tollgate does not hold: the client
 * sends it once, as the app produces it. Its declared length, when known, is all that is read of
 * it (the token estimate by size).
 */
public final class OutboundRequest {

  private static final Pattern USER_INFO = Pattern.compile("//[^@/]*@");

  private final String method;
  private final URI uri;
  private final Headers headers;
  private final byte[] body;
  /** -1: the body is {@link #body}; else a streamed body's declared length (0: not declared). */
  private final long streamedLength;

  private OutboundRequest(String method, URI uri, Headers headers, byte[] body, long streamedLength) {
    this.method = Objects.requireNonNull(method, "method");
    this.uri = Objects.requireNonNull(uri, "uri");
    this.headers = Objects.requireNonNull(headers, "headers");
    if (!uri.isAbsolute() || uri.getHost() == null) {
      throw new IllegalArgumentException("uri must be absolute with a host, was " + redacted(uri));
    }
    this.body = body;
    this.streamedLength = streamedLength;
  }

  /**
   * @throws IllegalArgumentException when {@code uri} is not absolute
   */
  public static OutboundRequest of(String method, URI uri, Headers headers, byte[] body) {
    Objects.requireNonNull(body, "body");
    return new OutboundRequest(method, uri, headers, body.clone(), -1);
  }

  /**
   * A request whose body the client streams as the app produces it, never held by Tollgate.
   *
   * @param declaredLength the body's length as the app declared it ({@code Content-Length}); -1
   *     when it did not (a chunked body)
   * @throws IllegalArgumentException when {@code uri} is not absolute
   */
  public static OutboundRequest withStreamedBody(String method, URI uri, Headers headers,
      long declaredLength) {
    return new OutboundRequest(method, uri, headers, new byte[0], Math.max(0, declaredLength));
  }

  public String method() {
    return method;
  }

  public URI uri() {
    return uri;
  }

  public Headers headers() {
    return headers;
  }

  /** A copy of the body. */
  public byte[] body() {
    return body.clone();
  }

  /** The body without copying it, read-only: for a client that writes it out. */
  public ByteBuffer bodyBuffer() {
    return ByteBuffer.wrap(body).asReadOnlyBuffer();
  }

  public int bodyLength() {
    return body.length;
  }

  /**
   * For a request made {@link #withStreamedBody}: the length the app declared for the body it
   * streams (0 when it declared none); empty for a request whose body is {@link #body()}.
   */
  public OptionalLong streamedBodyLength() {
    return streamedLength < 0 ? OptionalLong.empty() : OptionalLong.of(streamedLength);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof OutboundRequest other
        && method.equals(other.method)
        && uri.equals(other.uri)
        && headers.equals(other.headers)
        && Arrays.equals(body, other.body)
        && streamedLength == other.streamedLength;
  }

  @Override
  public int hashCode() {
    return Objects.hash(method, uri, headers, Arrays.hashCode(body), streamedLength);
  }

  @Override
  public String toString() {
    return method + " " + redacted(uri) + " " + headers + (streamedLength < 0
        ? " (" + body.length + " bytes)" : " (a streamed body of " + streamedLength + " bytes)");
  }

  private static String redacted(URI uri) {
    return USER_INFO.matcher(uri.toString()).replaceAll("//***@");
  }
}
