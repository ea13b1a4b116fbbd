package io.tollgate.servlet;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/** An app endpoint that fails: the container answers 500. */
public class FailingServlet extends HttpServlet {

  @Override
  protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    req.getInputStream().readAllBytes();
    throw new IllegalStateException("the app failed (a test)");
  }
}
