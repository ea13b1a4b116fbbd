package io.tollgate.agent.jdkhttp;

import io.tollgate.router.CrossOriginHeaders;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * Redirects of the calls Tollgate sends through a JDK {@code HttpClient} that follows them. The
 * client copies every header the app set to wherever a redirect points (JDK 17 even
 * {@code Authorization}; later ones drop that alone), and it has no hook between two hops. So
 * Tollgate sends its attempts through a twin of the app's client that follows none, and follows
 * them itself, by the client's own rules ({@link HttpClient.Redirect} policy, status codes,
 * methods, the JDK's limit of hops): to the origin the attempt went to with its headers, anywhere
 * else with only those {@link CrossOriginHeaders} lets leave.
 */
final class Redirects {

  /** As the JDK: {@code jdk.httpclient.redirects.retrylimit}, default 5, counts the first send too. */
  private static final int RETRY_LIMIT = Integer.getInteger("jdk.httpclient.redirects.retrylimit", 5);

  /** Each app client that follows redirects, and its twin that does not. */
  private static final Map<HttpClient, HttpClient> TWINS = Collections.synchronizedMap(new WeakHashMap<>());

  private final HttpClient.Redirect policy;
  private final HttpRequest first;
  private final CrossOriginHeaders leaving;
  private int followed;

  /**
   * @param policy the app's client's
   * @param first the attempt as Tollgate sends it: its origin is where its headers may go
   */
  Redirects(HttpClient.Redirect policy, HttpRequest first, CrossOriginHeaders leaving) {
    this.policy = policy;
    this.first = first;
    this.leaving = leaving;
  }

  /**
   * The client to send Tollgate's attempts through: {@code client} itself when it follows no
   * redirect, else its twin (same version, proxy, authenticator, cookies, TLS, executor and
   * connect timeout) that follows none, made once per client.
   */
  static HttpClient sender(HttpClient client) {
    if (client.followRedirects() == HttpClient.Redirect.NEVER) {
      return client;
    }
    return TWINS.computeIfAbsent(client, Redirects::twin);
  }

  private static HttpClient twin(HttpClient client) {
    HttpClient.Builder twin = HttpClient.newBuilder()
        .followRedirects(HttpClient.Redirect.NEVER)
        .version(client.version())
        .sslContext(client.sslContext())
        .sslParameters(client.sslParameters());
    client.cookieHandler().ifPresent(twin::cookieHandler);
    client.connectTimeout().ifPresent(twin::connectTimeout);
    client.proxy().ifPresent(twin::proxy);
    client.authenticator().ifPresent(twin::authenticator);
    client.executor().ifPresent(twin::executor);
    return twin.build();
  }

  /**
   * The request the app's client would send after {@code response} to {@code sent}, or null when
   * the response is the answer (no redirect, the policy refuses it, or too many hops).
   */
  HttpRequest next(HttpRequest sent, HttpResponse.ResponseInfo response) {
    int status = response.statusCode();
    if (policy == HttpClient.Redirect.NEVER || !isRedirect(status)) {
      return null;
    }
    URI target;
    try {
      URI location = response.headers().firstValue("Location").map(URI::create).orElse(null);
      if (location == null) {
        return null;
      }
      target = sent.uri().resolve(location);
    } catch (IllegalArgumentException e) {
      return null; // no URI: the app gets the redirect itself
    }
    if (target.getScheme() == null || target.getHost() == null) {
      return null;
    }
    if (!mayGo(sent.uri(), target) || ++followed >= RETRY_LIMIT) {
      return null;
    }
    boolean sameOrigin = CrossOriginHeaders.sameOrigin(first.uri(), target);
    HttpRequest.Builder next = HttpRequest.newBuilder(first,
            (name, value) -> sameOrigin || leaving.mayLeave(name))
        .uri(target);
    String method = method(status, sent.method());
    if (!method.equals(sent.method()) || status == 303) {
      next.method(method, HttpRequest.BodyPublishers.noBody());
    } else {
      next.method(method, sent.bodyPublisher().orElse(HttpRequest.BodyPublishers.noBody()));
    }
    return next.build();
  }

  /** The codes the JDK follows: not 300, 304, 305, 306. */
  private static boolean isRedirect(int status) {
    return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
  }

  private boolean mayGo(URI from, URI to) {
    return policy == HttpClient.Redirect.ALWAYS
        || to.getScheme().equalsIgnoreCase(from.getScheme()) || to.getScheme().equalsIgnoreCase("https");
  }

  /** As the JDK: a POST becomes a GET on 301 and 302, everything on 303. */
  private static String method(int status, String method) {
    if (status == 303) {
      return "GET";
    }
    return (status == 301 || status == 302) && method.equals("POST") ? "GET" : method;
  }
}
