package io.tollgate.agent;

import io.tollgate.router.CrossOriginHeaders;
import java.util.Locale;

/**
 * The origin (scheme, host, port) a provider call was sent to, carried with it through a client
 * that follows redirects itself: an Apache HttpClient's context holds it under {@link #ATTRIBUTE}
 * while Tollgate sends an attempt, and the hook before each request the client writes strips a
 * request to any other origin down to the headers that may leave ({@link CrossOriginHeaders}), so
 * no credential follows a redirect. A JDK type for the clients' helpers, whatever loader they are in.
 */
public final class ProviderOrigin {

  /** The context attribute. */
  public static final String ATTRIBUTE = ProviderOrigin.class.getName();

  private final String scheme;
  private final String host;
  private final int port;
  private final CrossOriginHeaders leaving;

  private ProviderOrigin(String scheme, String host, int port, CrossOriginHeaders leaving) {
    this.scheme = scheme.toLowerCase(Locale.ROOT);
    this.host = host.toLowerCase(Locale.ROOT);
    this.port = port >= 0 ? port : CrossOriginHeaders.defaultPort(scheme);
    this.leaving = leaving;
  }

  /** {@code port} below 0: the scheme's default. */
  public static ProviderOrigin of(String scheme, String host, int port, CrossOriginHeaders leaving) {
    return new ProviderOrigin(scheme, host, port, leaving);
  }

  /** Whether a request to {@code scheme://host:port} ({@code port} below 0: the default) stays at this origin. */
  public boolean isAt(String scheme, String host, int port) {
    return scheme != null && host != null
        && this.scheme.equalsIgnoreCase(scheme) && this.host.equalsIgnoreCase(host)
        && this.port == (port >= 0 ? port : CrossOriginHeaders.defaultPort(scheme));
  }

  /** Whether a header of a request written to another origin may stay on it. */
  public boolean mayLeave(String headerName) {
    return leaving.mayLeaveOnTheWire(headerName);
  }

  @Override
  public String toString() {
    return scheme + "://" + host + ":" + port;
  }
}
