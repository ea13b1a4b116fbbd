package io.tollgate.spring.boot.client;

import java.io.IOException;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.net.URI;
import java.util.Arrays;
import java.util.Objects;
import org.springframework.http.HttpMethod;
import org.springframework.http.client.ClientHttpRequest;
import org.springframework.http.client.ClientHttpRequestFactory;

/**
 * Wraps Boot's {@code ClientHttpRequestFactoryBuilder} bean (the JDK {@code HttpClient}, Apache
 * HttpClient 5, Jetty, {@code HttpURLConnection}): each factory it builds with settings that follow
 * redirects comes with a twin built from the same builder and settings but
 * {@code redirects=dont-follow}. The twin sends only the attempts Tollgate marks
 * ({@link ProviderRedirects}), which then follows their redirects itself; every other request goes
 * through the app's factory as before. Settings that follow no redirect build the app's factory
 * alone.
 *
 * <p>Boot 3.5 builds from {@code ClientHttpRequestFactorySettings}, Boot 4 from
 * {@code HttpClientSettings}; both are records with {@code redirects()} and
 * {@code withRedirects(...)} taking an enum with {@code DONT_FOLLOW}, so the builder is wrapped by
 * a proxy of its interface that reads the settings through those public methods.
 */
public final class NonFollowingTwins implements InvocationHandler {

  private final Object builder;

  private NonFollowingTwins(Object builder) {
    this.builder = builder;
  }

  /** {@code builder} (a {@code ClientHttpRequestFactoryBuilder}) that also builds the twins. */
  public static Object wrap(Object builder, Class<?> builderInterface) {
    Objects.requireNonNull(builder, "builder");
    return Proxy.newProxyInstance(builderInterface.getClassLoader(), new Class<?>[] {builderInterface},
        new NonFollowingTwins(builder));
  }

  @Override
  public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
    if (method.getDeclaringClass() == Object.class) {
      return switch (method.getName()) {
        case "equals" -> proxy == args[0];
        case "hashCode" -> System.identityHashCode(proxy);
        default -> "Tollgate(" + builder + ")";
      };
    }
    Object answer = call(method, builder, args);
    if (method.getName().equals("build") && args != null && args.length == 1 && args[0] != null
        && answer instanceof ClientHttpRequestFactory app) {
      Object dontFollow = dontFollow(args[0]);
      return dontFollow == null ? app
          : new SwitchingFactory(app, () -> (ClientHttpRequestFactory) call(method, builder, new Object[] {dontFollow}));
    }
    if (method.getReturnType().isInstance(answer) && method.getReturnType() == method.getDeclaringClass()) {
      return wrap(answer, method.getDeclaringClass()); // withCustomizer(...): the new builder too
    }
    return answer;
  }

  /** The same settings that follow no redirect, or null when {@code settings} already follow none. */
  private static Object dontFollow(Object settings) throws ReflectiveOperationException {
    Object redirects = settings.getClass().getMethod("redirects").invoke(settings);
    if (redirects != null && ((Enum<?>) redirects).name().equals("DONT_FOLLOW")) {
      return null;
    }
    Method withRedirects = Arrays.stream(settings.getClass().getMethods())
        .filter(m -> m.getName().equals("withRedirects") && m.getParameterCount() == 1)
        .findFirst().orElseThrow(() -> new NoSuchMethodException("withRedirects"));
    @SuppressWarnings({"unchecked", "rawtypes"})
    Object never = Enum.valueOf((Class) withRedirects.getParameterTypes()[0], "DONT_FOLLOW");
    return withRedirects.invoke(settings, never);
  }

  private static Object call(Method method, Object target, Object[] args) throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  /** Builds the twin: the same builder, with the same settings but no redirects followed. */
  @FunctionalInterface
  interface TwinBuilder {
    ClientHttpRequestFactory build() throws Throwable;
  }

  /** The app's factory, and for the attempts Tollgate follows the redirects of, its twin. */
  static final class SwitchingFactory implements ClientHttpRequestFactory {

    private final ClientHttpRequestFactory app;
    private final TwinBuilder builder;
    /** Built on the first attempt Tollgate sends: an app that calls no provider pays nothing. */
    private volatile ClientHttpRequestFactory twin;

    SwitchingFactory(ClientHttpRequestFactory app, TwinBuilder builder) {
      this.app = app;
      this.builder = builder;
    }

    @Override
    public ClientHttpRequest createRequest(URI uri, HttpMethod httpMethod) throws IOException {
      return ProviderRedirects.takenByTollgate(uri) ? twin().createRequest(uri, httpMethod)
          : app.createRequest(uri, httpMethod);
    }

    private ClientHttpRequestFactory twin() throws IOException {
      ClientHttpRequestFactory built = twin;
      if (built == null) {
        synchronized (this) {
          built = twin;
          if (built == null) {
            try {
              built = builder.build();
            } catch (IOException | RuntimeException | Error e) {
              throw e;
            } catch (Throwable e) {
              throw new IllegalStateException("Building a request factory that follows no redirect failed", e);
            }
            twin = built;
          }
        }
      }
      return built;
    }

    @Override
    public String toString() {
      return app.toString();
    }
  }
}
