package io.tollgate.servlet;

import io.tollgate.gate.Gate;
import io.tollgate.status.StatusPage;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;

/**
 * The status page at {@code tollgate.status.path} within the app: the filter answers it itself,
 * before any tenant is asked for, so reading it is charged to nobody. Who may read its data is the
 * page's rule ({@link StatusPage}): the token, or a loopback peer no proxy forwarded; who may
 * change the live overrides through it: the token only.
 */
final class StatusRoute {

  private final String path;
  private final StatusPage page;

  private StatusRoute(String path, StatusPage page) {
    this.path = path;
    this.page = page;
  }

  /** The route of {@code gate}'s {@code status.path}; null when it has none. */
  static StatusRoute of(Gate gate) {
    return gate.config().status().path().map(path -> new StatusRoute(path, StatusPage.of(gate)))
        .orElse(null);
  }

  /**
   * A GET of the page's path, or a POST (a change of the live overrides), as the request URI has
   * it after the context path.
   */
  boolean matches(HttpServletRequest request) {
    String uri = request.getRequestURI();
    String context = request.getContextPath();
    String method = request.getMethod();
    return ("GET".equals(method) || "POST".equals(method)) && uri.startsWith(context)
        && uri.substring(context.length()).equals(path);
  }

  void answer(HttpServletRequest request, HttpServletResponse response) throws IOException {
    StatusPage.Response answer = page.handle(new StatusPage.Request(request.getMethod(),
        request.getQueryString(), request.getHeader("Accept"), request.getHeader("Authorization"),
        // the container's remote address is an IP literal: no name is looked up
        InetAddress.getByName(request.getRemoteAddr()),
        request.getHeader("Forwarded") != null || request.getHeader("X-Forwarded-For") != null,
        request.getContentType(), request.getInputStream()));
    response.setStatus(answer.status());
    answer.headers().forEach(response::setHeader);
    response.setContentLength(answer.body().length);
    try (OutputStream out = response.getOutputStream()) {
      out.write(answer.body());
    }
  }
}
