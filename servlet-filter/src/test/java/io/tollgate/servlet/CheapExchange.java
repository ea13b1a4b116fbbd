package io.tollgate.servlet;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.lang.reflect.Proxy;
import java.util.HashMap;
import java.util.Map;

/**
 * A request and its response for calling {@link TollgateFilter#doFilter} in a loop, a million
 * times, without a container: a bodiless GET of the chat path naming {@code tenant} in
 * {@code X-Tenant-Id}, and a response that keeps its status and discards its body.
 */
final class CheapExchange {

  final HttpServletRequest request;
  final HttpServletResponse response;
  private final Map<String, Object> attributes = new HashMap<>();
  private int status = 200;

  CheapExchange(String tenant) {
    ClassLoader loader = CheapExchange.class.getClassLoader();
    request = (HttpServletRequest) Proxy.newProxyInstance(loader, new Class<?>[] {HttpServletRequest.class},
        (proxy, method, args) -> switch (method.getName()) {
          case "getHeader" -> "X-Tenant-Id".equalsIgnoreCase((String) args[0]) ? tenant : null;
          case "getMethod" -> "GET";
          case "getRequestURI" -> FilterContract.CHAT;
          case "getContentLengthLong" -> 0L;
          case "getContentLength" -> 0;
          case "getAttribute" -> attributes.get((String) args[0]);
          case "setAttribute" -> attributes.put((String) args[0], args[1]);
          case "isAsyncStarted", "isAsyncSupported" -> false;
          case "hashCode" -> System.identityHashCode(proxy);
          case "equals" -> proxy == args[0];
          case "toString" -> "GET " + FilterContract.CHAT;
          default -> null;
        });
    response = (HttpServletResponse) Proxy.newProxyInstance(loader, new Class<?>[] {HttpServletResponse.class},
        (proxy, method, args) -> switch (method.getName()) {
          case "setStatus" -> {
            status = (Integer) args[0];
            yield null;
          }
          case "getStatus" -> status;
          case "getOutputStream" -> Discarded.INSTANCE;
          case "isCommitted" -> false;
          case "hashCode" -> System.identityHashCode(proxy);
          case "equals" -> proxy == args[0];
          case "toString" -> "response " + status;
          default -> null;
        });
  }

  int status() {
    return status;
  }

  /** A response body nobody reads. */
  private static final class Discarded extends ServletOutputStream {
    static final Discarded INSTANCE = new Discarded();

    @Override
    public void write(int b) {}

    @Override
    public void write(byte[] b, int off, int len) {}

    @Override
    public boolean isReady() {
      return true;
    }

    @Override
    public void setWriteListener(WriteListener listener) {}
  }
}
