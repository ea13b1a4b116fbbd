package io.tollgate.router;

import io.tollgate.llm.Headers;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * An HTTP request to an LLM provider as it goes on the wire: method, absolute URI, headers and a
 * body that can be sent again (empty for none). Immutable: the body is copied in and out.
 * {@link #toString()} shows neither credentials nor the body.
 */
public final class OutboundRequest {

  private static final Pattern USER_INFO = Pattern.compile("//[^@/]*@");

  private final String method;
  private final URI uri;
  private final Headers headers;
  private final byte[] body;

  private OutboundRequest(String method, URI uri, Headers headers, byte[] body) {
    this.method = method;
    this.uri = uri;
    this.headers = headers;
    this.body = body;
  }

  /**
   * @throws IllegalArgumentException when {@code uri} is not absolute
   */
  public static OutboundRequest of(String method, URI uri, Headers headers, byte[] body) {
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(uri, "uri");
    Objects.requireNonNull(headers, "headers");
    Objects.requireNonNull(body, "body");
    if (!uri.isAbsolute() || uri.getHost() == null) {
      throw new IllegalArgumentException("uri must be absolute with a host, was " + redacted(uri));
    }
    return new OutboundRequest(method, uri, headers, body.clone());
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

  @Override
  public boolean equals(Object o) {
    return o instanceof OutboundRequest other
        && method.equals(other.method)
        && uri.equals(other.uri)
        && headers.equals(other.headers)
        && Arrays.equals(body, other.body);
  }

  @Override
  public int hashCode() {
    return Objects.hash(method, uri, headers, Arrays.hashCode(body));
  }

  @Override
  public String toString() {
    return method + " " + redacted(uri) + " " + headers + " (" + body.length + " bytes)";
  }

  private static String redacted(URI uri) {
    return USER_INFO.matcher(uri.toString()).replaceAll("//***@");
  }
}
