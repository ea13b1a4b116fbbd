package io.tollgate.servlet;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UnsupportedEncodingException;
import java.nio.charset.Charset;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Optional;

/**
 * The request as the app sees it behind the filter. A JSON body is read up to the cap ({@code
 * tokens.max-buffered-body}, or the filter's {@code max-buffered-body}): whole when it ends
 * within the cap, to estimate its tokens; of a larger one (declared larger, or chunked and
 * outgrowing it) only the first cap + 1 bytes are held, read for its model and output cap, and the
 * rest streams to the app from the container. Either way this wrapper hands the app the same
 * bytes, by stream or by reader. Any other body is never read by the filter.
 *
 * <p>It also starts asynchronous processing with the filter's own response, so that an app that
 * writes through {@code AsyncContext.getResponse()} on another thread is still observed, and
 * returns an {@link AsyncContext} whose tasks and listeners run with the tenant (and user) bound.
 */
final class InboundRequest extends HttpServletRequestWrapper {

  private final byte[] held;
  private final int heldLength;
  /** True when {@link #held} is the whole body. */
  private final boolean whole;
  /** True for a JSON body the filter reads (in part when larger than the cap). */
  private final boolean json;

  private HeldBodyStream stream;
  private BufferedReader reader;
  private String characterEncoding;

  private ServletResponse response;
  private InboundCall call;
  private String tenant;
  /** The user inside {@link #tenant}, or null. */
  private String user;
  private volatile boolean asyncStartedHere;
  private TenantAsyncContext asyncContext;

  private InboundRequest(HttpServletRequest request, byte[] held, int heldLength, boolean whole,
      boolean json) {
    super(request);
    this.held = held;
    this.heldLength = heldLength;
    this.whole = whole;
    this.json = json;
  }

  /** A wrapper that leaves the body to the container: the filter reads none of it. */
  static InboundRequest streamed(HttpServletRequest request) {
    return new InboundRequest(request, null, 0, false, false);
  }

  /**
   * Reads a JSON body up to {@code maxHeld} bytes (one more when it is larger, to know that it
   * is); any other body is left to stream.
   *
   * @throws IOException when the client fails while sending it (as the app's own read would)
   */
  static InboundRequest reading(HttpServletRequest request, int maxHeld) throws IOException {
    long declared = request.getContentLengthLong();
    if (!isJson(request.getContentType()) || declared == 0) {
      return streamed(request);
    }
    if (maxHeld == 0) {
      return new InboundRequest(request, null, 0, false, true); // read for its size alone
    }
    ServletInputStream in = request.getInputStream();
    if (declared > 0 && declared <= maxHeld) {
      byte[] body = in.readNBytes((int) declared);
      return new InboundRequest(request, body, body.length, true, true);
    }
    // Chunked, or declared larger than the cap: read one byte past the cap.
    byte[] prefix = in.readNBytes(maxHeld + 1);
    if (prefix.length == 0) {
      return streamed(request);
    }
    return new InboundRequest(request, prefix, prefix.length, prefix.length <= maxHeld, true);
  }

  /** {@code application/json}, {@code application/*+json}, with or without parameters. */
  static boolean isJson(String contentType) {
    if (contentType == null) {
      return false;
    }
    int semicolon = contentType.indexOf(';');
    String type = (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).trim().toLowerCase(Locale.ROOT);
    return type.equals("application/json") || (type.startsWith("application/") && type.endsWith("+json"));
  }

  /** True for a JSON body the filter read, whole or in part. */
  boolean json() {
    return json;
  }

  /** True when the filter holds the whole body. */
  boolean whole() {
    return whole;
  }

  /** The bytes held: the whole body, or the first of a larger one (none for a cap of 0). */
  byte[] heldBody() {
    if (held == null) {
      return new byte[0];
    }
    return held.length == heldLength ? held : java.util.Arrays.copyOf(held, heldLength);
  }

  /**
   * The body's length as far as it is known now: the declared one, else the bytes held plus those
   * the app has read of the rest.
   */
  long knownLength() {
    long declared = getContentLengthLong();
    if (declared >= 0) {
      return declared;
    }
    HeldBodyStream read = stream;
    return heldLength + (read == null ? 0 : read.restRead());
  }

  /** True when the body's length was not declared (chunked). */
  boolean lengthUndeclared() {
    return getContentLengthLong() < 0;
  }

  /** Bytes of the body held in memory: 0 when streamed, the cap plus one at most. A test probe. */
  int heldBytes() {
    return heldLength;
  }

  /** Connects the request to the call it belongs to, for asynchronous processing. */
  void attach(ServletResponse tappingResponse, InboundCall inboundCall, String tenantId,
      String userId) {
    this.response = tappingResponse;
    this.call = inboundCall;
    this.tenant = tenantId;
    this.user = userId;
  }

  /** True when the app started asynchronous processing through this wrapper. */
  boolean asyncStartedHere() {
    return asyncStartedHere;
  }

  @Override
  public ServletInputStream getInputStream() throws IOException {
    if (held == null) {
      return super.getInputStream();
    }
    if (reader != null) {
      throw new IllegalStateException("getReader() has already been called for this request");
    }
    return heldStream();
  }

  private HeldBodyStream heldStream() throws IOException {
    if (stream == null) {
      stream = new HeldBodyStream(held, heldLength, whole ? null : super.getInputStream(), this);
    }
    return stream;
  }

  @Override
  public BufferedReader getReader() throws IOException {
    if (held == null) {
      return super.getReader();
    }
    if (reader == null) {
      if (stream != null) {
        throw new IllegalStateException("getInputStream() has already been called for this request");
      }
      reader = new BufferedReader(new InputStreamReader(heldStream(), readerCharset()));
    }
    return reader;
  }

  /**
   * What the container would decode with: the encoding the app set, else the request's, else the
   * context's {@code request-character-encoding}, else ISO-8859-1 (Servlet 6.0, 3.12).
   */
  private Charset readerCharset() throws UnsupportedEncodingException {
    String name = getCharacterEncoding();
    if (name == null) {
      name = getServletContext().getRequestCharacterEncoding();
    }
    if (name == null) {
      return StandardCharsets.ISO_8859_1;
    }
    try {
      return Charset.forName(name);
    } catch (IllegalArgumentException e) {
      throw new UnsupportedEncodingException(name);
    }
  }

  @Override
  public String getCharacterEncoding() {
    return characterEncoding != null ? characterEncoding : super.getCharacterEncoding();
  }

  /**
   * Kept here as well as passed on: a container may ignore it once the filter has taken the input
   * stream, yet the app's reader must honour it.
   */
  @Override
  public void setCharacterEncoding(String encoding) throws UnsupportedEncodingException {
    if (held == null) {
      super.setCharacterEncoding(encoding);
      return;
    }
    if (reader != null) {
      return; // too late, as the specification says: no effect
    }
    if (encoding != null && !supported(encoding)) {
      throw new UnsupportedEncodingException(encoding);
    }
    characterEncoding = encoding;
    super.setCharacterEncoding(encoding);
  }

  @Override
  public void setCharacterEncoding(Charset encoding) {
    if (held == null) {
      super.setCharacterEncoding(encoding);
      return;
    }
    if (reader == null) {
      characterEncoding = encoding == null ? null : encoding.name();
      super.setCharacterEncoding(encoding);
    }
  }

  private static boolean supported(String name) {
    try {
      return Charset.isSupported(name);
    } catch (IllegalCharsetNameException e) {
      return false;
    }
  }

  /** Starts with the filter's own request and response, so that what the app writes is observed. */
  @Override
  public AsyncContext startAsync() {
    if (response == null) {
      return super.startAsync();
    }
    return startAsync(this, response);
  }

  @Override
  public AsyncContext startAsync(ServletRequest servletRequest, ServletResponse servletResponse) {
    AsyncContext started = super.startAsync(servletRequest, servletResponse);
    asyncStartedHere = true;
    if (call == null) {
      return started;
    }
    started.addListener(call, this, response);
    asyncContext = new TenantAsyncContext(started, tenant, user,
        servletRequest == this && servletResponse == response, call);
    return asyncContext;
  }

  @Override
  public AsyncContext getAsyncContext() {
    AsyncContext current = super.getAsyncContext();
    TenantAsyncContext ours = asyncContext;
    if (ours != null && ours.wraps(current)) {
      return ours;
    }
    return tenant == null ? current
        : new TenantAsyncContext(current, tenant, user, current.hasOriginalRequestAndResponse(), call);
  }
}
