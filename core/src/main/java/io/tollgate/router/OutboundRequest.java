package io.tollgate.router;

import io.tollgate.llm.Headers;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * An HTTP request to an LLM provider as it goes on the wire: method, absolute URI, headers and a
 * body that can be sent again (empty for none). Immutable: the body is copied in and out.
 * {@link #toString()} shows neither credentials nor the body.
 *
 * <p>A request made with {@link #withHeldPrefix} or {@link #withStreamedBody} has a body Tollgate
 * does not hold whole ({@link StreamedBody}): {@link #body()} is only its first bytes (possibly
 * none), read for the model and the output cap; the client sends the whole body once, as the app
 * produces it, and its prompt is estimated from its size.
 */
public final class OutboundRequest {

  private static final Pattern USER_INFO = Pattern.compile("//[^@/]*@");

  private final String method;
  private final URI uri;
  private final Headers headers;
  private final byte[] body;
  /** Null: the body is {@link #body}; else the body streamed, of which {@link #body} is the start. */
  private final StreamedBody streamed;

  private OutboundRequest(String method, URI uri, Headers headers, byte[] body, StreamedBody streamed) {
    this.method = Objects.requireNonNull(method, "method");
    this.uri = Objects.requireNonNull(uri, "uri");
    this.headers = Objects.requireNonNull(headers, "headers");
    if (!uri.isAbsolute() || uri.getHost() == null) {
      throw new IllegalArgumentException("uri must be absolute with a host, was " + redacted(uri));
    }
    this.body = body;
    this.streamed = streamed;
  }

  /**
   * @throws IllegalArgumentException when {@code uri} is not absolute
   */
  public static OutboundRequest of(String method, URI uri, Headers headers, byte[] body) {
    Objects.requireNonNull(body, "body");
    return new OutboundRequest(method, uri, headers, body.clone(), null);
  }

  /**
   * A request whose body the client streams as the app produces it, none of it held by Tollgate.
   *
   * @param declaredLength the body's length as the app declared it ({@code Content-Length}); -1
   *     when it did not (a chunked body)
   * @throws IllegalArgumentException when {@code uri} is not absolute
   */
  public static OutboundRequest withStreamedBody(String method, URI uri, Headers headers,
      long declaredLength) {
    return withHeldPrefix(method, uri, headers, new byte[0], StreamedBody.ofLength(declaredLength));
  }

  /**
   * A request of which Tollgate holds only the first bytes of the body, {@code prefix}; the rest
   * the client streams as the app produces it, counted into {@code body}.
   *
   * @throws IllegalArgumentException when {@code uri} is not absolute
   */
  public static OutboundRequest withHeldPrefix(String method, URI uri, Headers headers,
      byte[] prefix, StreamedBody body) {
    Objects.requireNonNull(prefix, "prefix");
    Objects.requireNonNull(body, "body");
    return new OutboundRequest(method, uri, headers, prefix.clone(), body);
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

  /** A copy of the body; of a {@linkplain #streamedBody() streamed} body, the bytes held. */
  public byte[] body() {
    return body.clone();
  }

  /** The body without copying it, read-only: for a client that writes it out. */
  public ByteBuffer bodyBuffer() {
    return ByteBuffer.wrap(body).asReadOnlyBuffer();
  }

  /** Bytes of {@link #body()}. */
  public int bodyLength() {
    return body.length;
  }

  /**
   * For a request made {@link #withHeldPrefix} or {@link #withStreamedBody}: the body streamed,
   * which Tollgate does not hold whole; empty for a request whose body is {@link #body()}.
   */
  public Optional<StreamedBody> streamedBody() {
    return Optional.ofNullable(streamed);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof OutboundRequest other
        && method.equals(other.method)
        && uri.equals(other.uri)
        && headers.equals(other.headers)
        && Arrays.equals(body, other.body)
        && streamed == other.streamed;
  }

  @Override
  public int hashCode() {
    return Objects.hash(method, uri, headers, Arrays.hashCode(body), System.identityHashCode(streamed));
  }

  @Override
  public String toString() {
    return method + " " + redacted(uri) + " " + headers + (streamed == null
        ? " (" + body.length + " bytes)" : " (" + streamed + ", " + body.length + " bytes held)");
  }

  private static String redacted(URI uri) {
    return USER_INFO.matcher(uri.toString()).replaceAll("//***@");
  }
}
