package io.tollgate.agent.apache;

import io.tollgate.gate.UsageObserver;
import io.tollgate.llm.Headers;
import io.tollgate.llm.SyntheticResponse;
import io.tollgate.router.OutboundRequest;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.URISyntaxException;

/**
 * What {@link ClassicExecution} needs of one line of Apache HttpClient's classic API (4.5 or 5):
 * the same operations under each line's own names. Implemented by a helper defined in the loader
 * of that line's classes; this package names none of them, so one execution serves both.
 *
 * @param <Q> the request type ({@code HttpRequest}, {@code ClassicHttpRequest})
 * @param <R> the response the client returns ({@code CloseableHttpResponse})
 * @param <E> the entity type ({@code HttpEntity})
 */
public interface ClassicClient<Q, R, E> {

  /** The host a request goes to: the explicit target's, else the request's own; null if none. */
  String hostOf(Object target, Q request);

  /** The absolute URL a request goes to. */
  URI uriOf(Object target, Q request) throws URISyntaxException;

  /** The target of a planned URL, the default port left to the scheme. */
  Object targetOf(URI uri);

  String methodOf(Q request);

  /** In order, names as written. */
  Headers headersOf(Q request);

  /** The request's entity; null when it has none or cannot have one. */
  E entityOf(Q request);

  void setEntity(Q request, E entity);

  /**
   * A request for a fallback: the plan's method, URL and carried-over headers, {@code body} as its
   * entity (when the original had one) and the original's request config.
   */
  Q rebuilt(OutboundRequest plan, Q original, E body);

  /** {@code request} through the app's client, with {@code context} (never null). */
  R execute(Object client, Object target, Q request, Object context) throws IOException;

  /** {@code context}, or a new client context when the app gave none. */
  Object contextOrNew(Object context);

  Object attribute(Object context, String name);

  void setAttribute(Object context, String name, Object value);

  void removeAttribute(Object context, String name);

  long contentLength(E entity);

  boolean isRepeatable(E entity);

  boolean isStreaming(E entity);

  InputStream content(E entity) throws IOException;

  void writeTo(E entity, OutputStream out) throws IOException;

  /** {@code bytes}, described as {@code original} was: repeatable, of their length. */
  E buffered(E original, byte[] bytes);

  /** {@code content}, the bytes read of {@code original} and then its rest, described as it was. */
  E prefixed(E original, InputStream content);

  /** {@code entity}, every byte the app reads of it passed through {@code usage}. */
  E tapping(E entity, UsageObserver usage);

  int status(R response);

  Headers headersOfResponse(R response);

  E entityOfResponse(R response);

  void setEntityOfResponse(R response, E entity);

  void close(R response) throws IOException;

  /** Tollgate's answer as the client would have delivered the provider's. */
  R synthetic(SyntheticResponse answer);
}
