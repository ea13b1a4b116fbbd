package io.tollgate.agent.okhttp.helpers;

import io.tollgate.llm.Headers;
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
 * Keeps a fallback's own credential on the request Tollgate sends it. A fallback attempt goes down
 * the app's call to another host, and some clients strip credentials from any request whose host
 * is not the call's: the OpenAI Java SDK (4.x) does so in a network interceptor of its own, to keep
 * its key from following a redirect, and so removed the key Tollgate set for the fallback. Tollgate tags the request it rebuilds for a fallback with that fallback's origin and
 * credential headers ({@link #tag}); its network interceptor, the last of every client, puts back
 * any of them a network interceptor before it removed, on a request to that origin only (a
 * redirect elsewhere keeps the tag, never the key).
 */
public final class FallbackCredentials implements Interceptor {

  /** What a rebuilt request carries, as its OkHttp tag. */
  static final class Tag {
    private final String scheme;
    private final String host;
    private final int port;
    private final List<String[]> credentials;

    private Tag(HttpUrl target, List<String[]> credentials) {
      this.scheme = target.scheme();
      this.host = target.host();
      this.port = target.port();
      this.credentials = credentials;
    }

    boolean isFor(HttpUrl url) {
      return url.scheme().equals(scheme) && url.host().equals(host) && url.port() == port;
    }
  }

  /**
   * {@code rebuilt} tagged with its credential headers from {@code plan}, or as it is when the plan
   * sets none.
   */
  static Request tag(Request rebuilt, Headers plan) {
    List<String[]> credentials = new ArrayList<>(1);
    for (Headers.Field field : plan.fields()) {
      if (RequestRewriter.CREDENTIAL_HEADERS.contains(field.name().toLowerCase(Locale.ROOT))) {
        credentials.add(new String[] {field.name(), field.value()});
      }
    }
    if (credentials.isEmpty()) {
      return rebuilt;
    }
    return rebuilt.newBuilder().tag(Tag.class, new Tag(rebuilt.url(), credentials)).build();
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
      if (interceptor != null && interceptor.getClass().getName().equals(FallbackCredentials.class.getName())) {
        it.remove();
      }
    }
    interceptors.add(new FallbackCredentials());
  }

  @Override
  public Response intercept(Chain chain) throws IOException {
    Request request = chain.request();
    Tag tag = request.tag(Tag.class);
    if (tag == null || !tag.isFor(request.url())) {
      return chain.proceed(request);
    }
    Request.Builder restored = null;
    for (String[] credential : tag.credentials) {
      if (request.header(credential[0]) == null) {
        if (restored == null) {
          restored = request.newBuilder();
        }
        restored.header(credential[0], credential[1]);
      }
    }
    return chain.proceed(restored == null ? request : restored.build());
  }
}
