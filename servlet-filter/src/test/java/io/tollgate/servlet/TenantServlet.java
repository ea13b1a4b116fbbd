package io.tollgate.servlet;

import io.tollgate.gate.Tenants;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/** Says which tenant is bound to the thread serving it (also after an async dispatch). */
public class TenantServlet extends HttpServlet {

  @Override
  protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    resp.setContentType("text/plain;charset=UTF-8");
    resp.getWriter().print(req.getDispatcherType() + " " + Tenants.current().orElse("(none)"));
  }
}
