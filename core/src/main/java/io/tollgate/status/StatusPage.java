package io.tollgate.status;

import io.tollgate.gate.Gate;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The status page and its JSON API, for any front end that can hand over a request's method,
 * headers and peer: the page (one self-contained HTML document) to a browser, the {@link
 * StatusReport} as JSON to everyone else and to the page itself ({@code ?view=status}).
 *
 * <p>Who may read the data: with a token configured, only a request bearing it ({@code
 * Authorization: Bearer <token>}); without one, only a request from loopback that no proxy
 * forwarded. The page itself holds no data, so it is served to anyone who can reach it; it asks
 * for the token when the data needs one. Every answer forbids caching, framing and sniffing, and
 * the page may run only its own inline script and style.
 */
public final class StatusPage {

  /** The query that asks for the data: what the page fetches on every front end. */
  public static final String DATA_QUERY = "view=status";

  private static final Page PAGE = Page.load();

  private final StatusReports reports;
  private final Optional<byte[]> token;
  private final boolean callerTrusted;

  private StatusPage(StatusReports reports, Optional<String> token, boolean callerTrusted) {
    this.reports = Objects.requireNonNull(reports, "reports");
    this.token = token.map(t -> t.getBytes(StandardCharsets.UTF_8));
    this.callerTrusted = callerTrusted;
  }

  /** The page of {@code gate}, its data guarded by {@code tollgate.status.token} and loopback. */
  public static StatusPage of(Gate gate) {
    return new StatusPage(StatusReports.of(gate), gate.config().status().token(), false);
  }

  /**
   * The page of {@code gate} for a front end that authorizes its callers itself (Spring Boot's
   * actuator security): every request that reaches it is answered.
   */
  public static StatusPage trustingCaller(Gate gate) {
    return new StatusPage(StatusReports.of(gate), Optional.empty(), true);
  }

  /**
   * One request.
   *
   * @param method the HTTP method
   * @param query the raw query string, or null
   * @param accept the {@code Accept} header, or null
   * @param authorization the {@code Authorization} header, or null
   * @param peer the address the request came from
   * @param forwarded true when a proxy says it forwarded the request ({@code Forwarded},
   *     {@code X-Forwarded-For}): then the peer is the proxy, not the reader
   */
  public record Request(String method, String query, String accept, String authorization,
      InetAddress peer, boolean forwarded) {}

  /** The answer: status, headers (content type included) and body. */
  public record Response(int status, Map<String, String> headers, byte[] body) {}

  public Response handle(Request request) {
    if (!request.method().equals("GET")) {
      Map<String, String> headers = headers("application/json");
      headers.put("Allow", "GET");
      return new Response(405, headers, error("the status page answers GET only"));
    }
    if (wantsPage(request)) {
      Map<String, String> headers = headers("text/html; charset=utf-8");
      headers.put("Content-Security-Policy", PAGE.policy);
      return new Response(200, headers, PAGE.html);
    }
    Optional<String> refusal = refusal(request);
    if (refusal.isPresent()) {
      Map<String, String> headers = headers("application/json");
      headers.put("WWW-Authenticate", "Bearer realm=\"tollgate\"");
      return new Response(401, headers, error(refusal.get()));
    }
    return new Response(200, headers("application/json"), json(reports.current()));
  }

  /** The report as the JSON API writes it. */
  public static byte[] json(StatusReport report) {
    return StatusJson.write(report);
  }

  /** The page's HTML: for a front end that serves it on its own. */
  public static byte[] html() {
    return PAGE.html.clone();
  }

  /** The page's Content-Security-Policy: its inline script and style by their digests. */
  public static String contentSecurityPolicy() {
    return PAGE.policy;
  }

  /**
   * The page's HTML carrying its policy in a {@code <meta http-equiv="Content-Security-Policy">}
   * at the top of its head: for a front end that cannot set response headers (Spring Boot's
   * actuator). Browsers apply a policy so delivered to the page's script, style, fetches and
   * images as they would the header's; {@code frame-ancestors} is left out, since they ignore it
   * there.
   */
  public static byte[] htmlWithPolicy() {
    return PAGE.htmlWithPolicy.clone();
  }

  private static boolean wantsPage(Request request) {
    boolean dataAsked = request.query() != null
        && ("&" + request.query() + "&").contains("&" + DATA_QUERY + "&");
    return !dataAsked && request.accept() != null && request.accept().contains("text/html");
  }

  private Optional<String> refusal(Request request) {
    if (callerTrusted) {
      return Optional.empty();
    }
    if (token.isPresent()) {
      String given = request.authorization();
      boolean bearer = given != null && given.regionMatches(true, 0, "Bearer ", 0, 7);
      byte[] presented = bearer ? given.substring(7).trim().getBytes(StandardCharsets.UTF_8) : new byte[0];
      return MessageDigest.isEqual(presented, token.get()) ? Optional.empty()
          : Optional.of("a valid bearer token is required (tollgate.status.token)");
    }
    if (request.peer() != null && request.peer().isLoopbackAddress() && !request.forwarded()) {
      return Optional.empty();
    }
    return Optional.of("beyond loopback the status data needs tollgate.status.token,"
        + " sent as a bearer token");
  }

  private static Map<String, String> headers(String contentType) {
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("Content-Type", contentType);
    headers.put("Cache-Control", "no-store");
    headers.put("X-Content-Type-Options", "nosniff");
    headers.put("X-Frame-Options", "DENY");
    headers.put("Referrer-Policy", "no-referrer");
    return headers;
  }

  private static byte[] error(String message) {
    return StatusJson.write(Map.of("error", message));
  }

  /** The HTML resource and the policy that admits exactly its inline script and style. */
  private record Page(byte[] html, String policy, byte[] htmlWithPolicy) {

    private static final Pattern SCRIPT = Pattern.compile("<script>(.*?)</script>", Pattern.DOTALL);
    private static final Pattern STYLE = Pattern.compile("<style>(.*?)</style>", Pattern.DOTALL);
    /** The first element of the head: a policy in a meta element governs only what follows it. */
    private static final String CHARSET = "<meta charset=\"utf-8\">";

    static Page load() {
      try (InputStream in = StatusPage.class.getResourceAsStream("status.html")) {
        if (in == null) {
          throw new IllegalStateException("status.html is missing beside " + StatusPage.class.getName());
        }
        byte[] html = in.readAllBytes();
        String text = new String(html, StandardCharsets.UTF_8);
        String loading = "default-src 'none'; connect-src 'self'; img-src 'self' data:; base-uri 'none';"
            + " form-action 'none';";
        String inline = "script-src " + digest(SCRIPT, text) + "; style-src " + digest(STYLE, text);
        String policy = loading + " frame-ancestors 'none'; " + inline;
        int head = text.indexOf(CHARSET);
        if (head < 0) {
          throw new IllegalStateException("status.html does not start its head with " + CHARSET);
        }
        int end = head + CHARSET.length();
        String withPolicy = text.substring(0, end) + "\n<meta http-equiv=\"Content-Security-Policy\""
            + " content=\"" + loading + " " + inline + "\">" + text.substring(end);
        return new Page(html, policy, withPolicy.getBytes(StandardCharsets.UTF_8));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    private static String digest(Pattern element, String html) {
      Matcher matcher = element.matcher(html);
      if (!matcher.find()) {
        throw new IllegalStateException("status.html has no " + element.pattern());
      }
      try {
        byte[] sha = MessageDigest.getInstance("SHA-256")
            .digest(matcher.group(1).getBytes(StandardCharsets.UTF_8));
        return "'sha256-" + Base64.getEncoder().encodeToString(sha) + "'";
      } catch (NoSuchAlgorithmException e) {
        throw new IllegalStateException("every Java runtime has SHA-256", e);
      }
    }
  }
}
