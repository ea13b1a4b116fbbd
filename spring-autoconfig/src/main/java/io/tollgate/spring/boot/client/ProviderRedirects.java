package io.tollgate.spring.boot.client;

import io.tollgate.router.CrossOriginHeaders;
import java.io.IOException;
import java.net.URI;
import java.util.HashMap;
import java.util.Map;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpRequest;
import org.springframework.http.client.ClientHttpRequestExecution;
import org.springframework.http.client.ClientHttpResponse;

/**
 * Redirects of the attempts Tollgate sends through a {@code RestClient} or {@code RestTemplate}
 * whose request factory follows them. The JDK {@code HttpClient}, Apache HttpClient 5, Jetty and
 * {@code HttpURLConnection} copy the app's headers to wherever a redirect points, with no hook
 * between two hops. So each attempt is marked while it is sent: a factory Boot built
 * ({@link NonFollowingTwins}) sends a marked request through its twin that follows none, and
 * Tollgate follows them here, as those clients do: to the origin the attempt went to with its
 * headers, anywhere else with only those {@link CrossOriginHeaders} lets leave.
 */
final class ProviderRedirects {

  /** Redirects followed at most, after the first send. */
  static final int MAX_HOPS = 5;

  private static final ThreadLocal<Attempt> SENDING = new ThreadLocal<>();

  private ProviderRedirects() {
  }

  /**
   * Whether the request {@code uri} the factory is asked for is an attempt Tollgate sends and will
   * follow redirects of; from then on it does.
   */
  static boolean takenByTollgate(URI uri) {
    Attempt attempt = SENDING.get();
    if (attempt == null || !attempt.uri.equals(uri)) {
      return false;
    }
    attempt.followedByTollgate = true;
    return true;
  }

  /** Sends {@code first} down the chain, then each redirect its twin factory answered. */
  static ClientHttpResponse send(HttpRequest first, byte[] body, ClientHttpRequestExecution execution,
      CrossOriginHeaders leaving) throws IOException {
    HttpRequest sent = first;
    byte[] sentBody = body;
    for (int hops = 0; ; hops++) {
      Attempt attempt = new Attempt(sent.getURI());
      Attempt outer = SENDING.get();
      SENDING.set(attempt);
      ClientHttpResponse response;
      try {
        response = execution.execute(sent, sentBody);
      } finally {
        SENDING.set(outer);
      }
      if (!attempt.followedByTollgate || hops == MAX_HOPS) {
        return response;
      }
      int status = response.getStatusCode().value();
      URI target = target(sent.getURI(), status, response.getHeaders().getFirst(HttpHeaders.LOCATION));
      if (target == null) {
        return response;
      }
      response.close();
      HttpMethod method = method(status, sent.getMethod());
      boolean bodyDropped = !method.equals(sent.getMethod()) || status == 303;
      boolean sameOrigin = CrossOriginHeaders.sameOrigin(first.getURI(), target);
      HttpHeaders headers = new HttpHeaders();
      // by name, not HttpHeaders' Map methods: Framework 7's HttpHeaders is no Map
      sent.getHeaders().forEach((name, values) -> {
        if ((sameOrigin || leaving.mayLeave(name)) && !(bodyDropped && describesTheBody(name))) {
          headers.addAll(name, values);
        }
      });
      if (bodyDropped) {
        sentBody = new byte[0];
      } else if (sentBody.length > 0) {
        // its length, as each attempt has: without one some clients stream the body chunked, or the
        // JDK client tries an h2c upgrade
        headers.setContentLength(sentBody.length);
      }
      sent = new Hop(method, target, headers, sent.getAttributes());
    }
  }

  /**
   * Where a redirect goes, or null when {@code status} is the answer: not a code those clients
   * follow, no usable {@code Location}, or from https to http.
   */
  private static URI target(URI from, int status, String location) {
    if (!(status == 301 || status == 302 || status == 303 || status == 307 || status == 308) || location == null) {
      return null;
    }
    URI target;
    try {
      target = from.resolve(location);
    } catch (IllegalArgumentException e) {
      return null; // no URI: the app gets the redirect itself
    }
    if (target.getScheme() == null || target.getHost() == null) {
      return null;
    }
    boolean downgrade = "https".equalsIgnoreCase(from.getScheme()) && !"https".equalsIgnoreCase(target.getScheme());
    return downgrade || !"http".equalsIgnoreCase(target.getScheme()) && !"https".equalsIgnoreCase(target.getScheme())
        ? null : target;
  }

  private static boolean describesTheBody(String name) {
    return name.equalsIgnoreCase(HttpHeaders.CONTENT_TYPE) || name.equalsIgnoreCase(HttpHeaders.CONTENT_LENGTH)
        || name.equalsIgnoreCase(HttpHeaders.CONTENT_ENCODING) || name.equalsIgnoreCase(HttpHeaders.TRANSFER_ENCODING);
  }

  /** As the clients do: a POST becomes a GET on 301 and 302, everything but HEAD on 303. */
  private static HttpMethod method(int status, HttpMethod method) {
    if (status == 303) {
      return method.equals(HttpMethod.HEAD) ? method : HttpMethod.GET;
    }
    return (status == 301 || status == 302) && method.equals(HttpMethod.POST) ? HttpMethod.GET : method;
  }

  /** One attempt while it is sent: its URI, as the chain hands it to the request factory. */
  private static final class Attempt {
    final URI uri;
    boolean followedByTollgate;

    Attempt(URI uri) {
      this.uri = uri;
    }
  }

  /** The request a redirect leads to. */
  private record Hop(HttpMethod method, URI uri, HttpHeaders headers, Map<String, Object> attributes)
      implements HttpRequest {

    Hop {
      attributes = new HashMap<>(attributes);
    }

    @Override
    public HttpMethod getMethod() {
      return method;
    }

    @Override
    public URI getURI() {
      return uri;
    }

    @Override
    public HttpHeaders getHeaders() {
      return headers;
    }

    @Override
    public Map<String, Object> getAttributes() {
      return attributes;
    }
  }
}
