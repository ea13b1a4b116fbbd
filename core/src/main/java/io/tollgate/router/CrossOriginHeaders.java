package io.tollgate.router;

import io.tollgate.llm.Headers;
import java.net.URI;
import java.util.Collection;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which request headers may go to another origin (scheme, host, port) than the one a call was
 * sent to: to a fallback when a call is rerouted, and across a redirect to another origin. An
 * allow-list: a header carries a credential unless it is known not to, whatever its name
 * ({@code cf-aig-authorization}, {@code helicone-auth}, {@code x-goog-api-key}, a gateway's own),
 * so only the headers of {@link #SAFE} leave, and never those named in {@code credential-headers}.
 *
 * <p>Left behind among the common ones: every credential ({@code authorization}, {@code api-key},
 * {@code x-api-key}, {@code proxy-authorization}, {@code cookie}), and {@code openai-organization}
 * and {@code openai-project}, which name the primary's account (OpenAI refuses a key of another
 * organization with them).
 */
public final class CrossOriginHeaders {

  /**
   * The headers that may leave an origin, lower case: how to read the body and the answer, the
   * client, the API version and beta features the body is written for, the W3C trace context and
   * the client's request id (a correlation id, which a fallback's logs should carry too).
   */
  public static final Set<String> SAFE = Set.of(
      "content-type", "accept", "accept-encoding", "user-agent",
      "openai-beta", "anthropic-version", "anthropic-beta",
      "traceparent", "tracestate", "x-request-id", "x-client-request-id");

  /**
   * The headers of the message's own framing, lower case: a client sets them for the request it
   * writes (target, body length, connection), so they stay on a request already on its way.
   */
  public static final Set<String> FRAMING = Set.of(
      "host", "content-length", "transfer-encoding", "connection", "expect", "te");

  /**
   * The query parameters a rerouted request keeps: Azure's {@code api-version} (which the rewrite
   * sets for an Azure target) and Anthropic's {@code beta} marker. Any other one may be a key
   * ({@code key}, {@code api-key}, {@code subscription-key}, {@code code}) and is dropped.
   */
  public static final Set<String> SAFE_QUERY_PARAMETERS = Set.of("api-version", "beta");

  private static final CrossOriginHeaders DEFAULTS = new CrossOriginHeaders(Set.of());

  private final Set<String> credentialHeaders;

  private CrossOriginHeaders(Set<String> credentialHeaders) {
    this.credentialHeaders = credentialHeaders;
  }

  /** The allow-list alone. */
  public static CrossOriginHeaders ofDefaults() {
    return DEFAULTS;
  }

  /**
   * The allow-list, less {@code credentialHeaders} (the configuration's {@code credential-headers}):
   * headers the app marks as secrets, never sent to another origin even if the allow-list names them.
   */
  public static CrossOriginHeaders of(Collection<String> credentialHeaders) {
    if (credentialHeaders.isEmpty()) {
      return DEFAULTS;
    }
    Set<String> names = new TreeSet<>();
    credentialHeaders.forEach(name -> names.add(name.toLowerCase(Locale.ROOT)));
    return new CrossOriginHeaders(Set.copyOf(names));
  }

  /** Whether a header the app wrote may go with its request to another origin. */
  public boolean mayLeave(String name) {
    String lower = name.toLowerCase(Locale.ROOT);
    return SAFE.contains(lower) && !credentialHeaders.contains(lower);
  }

  /**
   * As {@link #mayLeave}, for a request a client is about to write, which also carries the headers
   * of its framing ({@link #FRAMING}).
   */
  public boolean mayLeaveOnTheWire(String name) {
    return mayLeave(name) || FRAMING.contains(name.toLowerCase(Locale.ROOT));
  }

  /** {@code headers} without any that may not leave, in their order. */
  public Headers leaving(Headers headers) {
    Headers.Builder kept = Headers.builder();
    for (Headers.Field field : headers.fields()) {
      if (mayLeave(field.name())) {
        kept.add(field.name(), field.value());
      }
    }
    return kept.build();
  }

  /** The configured credential headers, lower case. */
  public Set<String> credentialHeaders() {
    return credentialHeaders;
  }

  /** Whether {@code a} and {@code b} have the same scheme, host and port (a default port spelled or not). */
  public static boolean sameOrigin(URI a, URI b) {
    return a.getScheme() != null && a.getScheme().equalsIgnoreCase(b.getScheme())
        && a.getHost() != null && a.getHost().equalsIgnoreCase(b.getHost())
        && port(a) == port(b);
  }

  /** The port of {@code uri}, its scheme's default when it names none. */
  public static int port(URI uri) {
    return uri.getPort() >= 0 ? uri.getPort() : defaultPort(uri.getScheme());
  }

  /** 443 for {@code https}, else 80. */
  public static int defaultPort(String scheme) {
    return "https".equalsIgnoreCase(scheme) ? 443 : 80;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof CrossOriginHeaders other && credentialHeaders.equals(other.credentialHeaders);
  }

  @Override
  public int hashCode() {
    return Objects.hash(credentialHeaders);
  }

  @Override
  public String toString() {
    return "CrossOriginHeaders{safe=" + new TreeSet<>(SAFE) + ", credential-headers=" + new TreeSet<>(credentialHeaders) + "}";
  }
}
