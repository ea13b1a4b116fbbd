package io.tollgate.agent.okhttp.helpers;

import io.tollgate.llm.Headers;
import io.tollgate.router.CrossOriginHeaders;
import io.tollgate.router.RequestRewriter;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import okhttp3.HttpUrl;
import okhttp3.Interceptor;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;

/**
 * Keeps credentials with the origin (scheme, host, port) Tollgate sent a provider call to. The
 * last network interceptor of every client, it sees each request OkHttp writes, redirects
 * included, and acts on those Tollgate {@link #tag tagged}:
 *
 * <ul>
 *   <li>To another origin (a redirect followed by OkHttp, which itself drops only
 *       {@code Authorization}): only the headers {@link CrossOriginHeaders} lets leave go, so no
 *       key of the app's or of a fallback's follows a redirect, whatever its header.</li>
 *   <li>To the tagged origin: a fallback's credential that a network interceptor before this one
 *       removed is put back. The OpenAI Java SDK (4.x) strips keys from any request whose host is
 *       not the call's, to keep its key from following a redirect, and so removed the key Tollgate
 *       set for a fallback.</li>
 * </ul>
 */
public final class OriginGuard implements Interceptor {

  /** What a request Tollgate sends carries, as its OkHttp tag: a redirect keeps it. */
  static final class Tag {
    private final String scheme;
    private final String host;
    private final int port;
    private final List<String[]> credentials;
    private final CrossOriginHeaders leaving;

    private Tag(HttpUrl target, List<String[]> credentials, CrossOriginHeaders leaving) {
      this.scheme = target.scheme();
      this.host = target.host();
      this.port = target.port();
      this.credentials = credentials;
      this.leaving = leaving;
    }

    boolean isFor(HttpUrl url) {
      return url.scheme().equals(scheme) && url.host().equals(host) && url.port() == port;
    }
  }

  /**
   * {@code request}, to a provider, tagged with its origin: OkHttp may follow a redirect from there
   * with only what {@code leaving} lets go.
   */
  static Request tag(Request request, CrossOriginHeaders leaving) {
    return request.newBuilder().tag(Tag.class, new Tag(request.url(), List.of(), leaving)).build();
  }

  /**
   * {@code rebuilt}, a request made from a tagged one for a fallback, tagged for the fallback's
   * origin instead, with the credential headers of {@code plan} to keep there.
   */
  static Request retag(Request rebuilt, Headers plan) {
    Tag tagged = rebuilt.tag(Tag.class);
    CrossOriginHeaders leaving = tagged == null ? CrossOriginHeaders.ofDefaults() : tagged.leaving;
    List<String[]> credentials = new ArrayList<>(1);
    for (Headers.Field field : plan.fields()) {
      if (RequestRewriter.CREDENTIAL_HEADERS.contains(field.name().toLowerCase(Locale.ROOT))) {
        credentials.add(new String[] {field.name(), field.value()});
      }
    }
    return rebuilt.newBuilder().tag(Tag.class, new Tag(rebuilt.url(), credentials, leaving)).build();
  }

  /**
   * Makes Tollgate's network interceptor the last of {@code builder}'s, once: called as each
   * client is made from its builder, after the app (or its SDK) has added its own.
   */
  public static void addTo(Object builder) {
    List<Interceptor> interceptors = ((OkHttpClient.Builder) builder).networkInterceptors();
    for (Iterator<Interceptor> it = interceptors.iterator(); it.hasNext(); ) {
      Interceptor interceptor = it.next();
      // by name: a copy injected into another class loader is the same interceptor
      if (interceptor != null && interceptor.getClass().getName().equals(OriginGuard.class.getName())) {
        it.remove();
      }
    }
    interceptors.add(new OriginGuard());
  }

  @Override
  public Response intercept(Chain chain) throws IOException {
    Request request = chain.request();
    Tag tag = request.tag(Tag.class);
    if (tag == null) {
      return chain.proceed(request);
    }
    return chain.proceed(tag.isFor(request.url()) ? withCredentials(request, tag) : leaving(request, tag));
  }

  /** A request to the tagged origin, with any of its credentials an interceptor removed put back. */
  private static Request withCredentials(Request request, Tag tag) {
    Request.Builder restored = null;
    for (String[] credential : tag.credentials) {
      if (request.header(credential[0]) == null) {
        if (restored == null) {
          restored = request.newBuilder();
        }
        restored.header(credential[0], credential[1]);
      }
    }
    return restored == null ? request : restored.build();
  }

  /** A request to another origin, with only the headers that may go there. */
  private static Request leaving(Request request, Tag tag) {
    okhttp3.Headers headers = request.headers();
    okhttp3.Headers.Builder kept = new okhttp3.Headers.Builder();
    boolean dropped = false;
    for (int i = 0; i < headers.size(); i++) {
      if (tag.leaving.mayLeaveOnTheWire(headers.name(i))) {
        kept.add(headers.name(i), headers.value(i));
      } else {
        dropped = true;
      }
    }
    return dropped ? request.newBuilder().headers(kept.build()).build() : request;
  }
}
