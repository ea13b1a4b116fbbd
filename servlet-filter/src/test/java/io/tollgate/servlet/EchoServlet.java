package io.tollgate.servlet;

import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletRequestWrapper;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * A plain app endpoint: reads the body (by stream, or by reader with {@code ?via=reader}, after
 * {@code setCharacterEncoding} with {@code &charset=}) and says
 * what it read: its length and SHA-256 in headers, the text itself for a reader, and how many body
 * bytes the filter held in memory ({@code x-held-bytes}, -1 when the filter did not wrap it).
 */
public class EchoServlet extends HttpServlet {

  static final int ECHO_LIMIT = 1 << 20;

  @Override
  protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    resp.setHeader("x-held-bytes", Integer.toString(heldBytes(req)));
    resp.setHeader("x-tenant", ChatAnswers.tenantHeader());
    if ("reader".equals(req.getParameter("via"))) {
      if (req.getParameter("charset") != null) {
        req.setCharacterEncoding(req.getParameter("charset"));
      }
      String text = read(req.getReader());
      byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
      resp.setHeader("x-body-chars", Integer.toString(text.length()));
      resp.setContentType("text/plain;charset=UTF-8");
      resp.getOutputStream().write(utf8);
      return;
    }
    MessageDigest sha = sha256();
    long length = 0;
    byte[] firstBytes = new byte[ECHO_LIMIT];
    int kept = 0;
    byte[] buffer = new byte[64 * 1024];
    try (InputStream in = req.getInputStream()) {
      int n;
      while ((n = in.read(buffer)) != -1) {
        sha.update(buffer, 0, n);
        int keep = Math.min(n, ECHO_LIMIT - kept);
        System.arraycopy(buffer, 0, firstBytes, kept, keep);
        kept += keep;
        length += n;
      }
    }
    resp.setHeader("x-body-length", Long.toString(length));
    resp.setHeader("x-body-sha256", HexFormat.of().formatHex(sha.digest()));
    resp.setContentType("application/octet-stream");
    if (length <= ECHO_LIMIT) {
      resp.getOutputStream().write(firstBytes, 0, kept);
    }
  }

  private static String read(Reader reader) throws IOException {
    StringBuilder text = new StringBuilder();
    char[] chars = new char[4096];
    int n;
    while ((n = reader.read(chars)) != -1) {
      text.append(chars, 0, n);
    }
    return text.toString();
  }

  /** The filter's package-private probe: the body bytes its wrapper holds in memory. */
  static int heldBytes(ServletRequest request) {
    ServletRequest r = request;
    while (true) {
      if (r instanceof InboundRequest inbound) {
        return inbound.heldBytes();
      }
      if (!(r instanceof ServletRequestWrapper wrapper)) {
        return -1;
      }
      r = wrapper.getRequest();
    }
  }

  static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
