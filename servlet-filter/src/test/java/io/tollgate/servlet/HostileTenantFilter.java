package io.tollgate.servlet;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * Lets a test send a tenant id HTTP cannot carry in a header (a newline, any byte): the base64url
 * of {@code X-Tenant-Base64} becomes the value of {@code X-Tenant-Id} seen by the filters after it.
 */
public class HostileTenantFilter implements Filter {

  @Override
  public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain)
      throws IOException, ServletException {
    HttpServletRequest request = (HttpServletRequest) req;
    String encoded = request.getHeader("X-Tenant-Base64");
    if (encoded == null) {
      chain.doFilter(req, res);
      return;
    }
    String tenant = new String(Base64.getUrlDecoder().decode(encoded), StandardCharsets.UTF_8);
    chain.doFilter(new HttpServletRequestWrapper(request) {
      @Override
      public String getHeader(String name) {
        return name.equalsIgnoreCase("X-Tenant-Id") ? tenant : super.getHeader(name);
      }
    }, res);
  }
}
