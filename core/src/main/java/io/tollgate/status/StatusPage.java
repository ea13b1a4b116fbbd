package io.tollgate.status;

import io.tollgate.gate.Gate;
import io.tollgate.overrides.OverrideRequest;
import io.tollgate.overrides.Overrides;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The status page and its JSON API, for any front end that can hand over a request's method,
 * headers, peer and body: the page (one self-contained HTML document) to a browser, the {@link
 * StatusReport} as JSON to everyone else and to the page itself ({@code ?view=status}), and the
 * live overrides ({@code ?view=overrides}: read with a GET, changed with a POST, {@link
 * OverridesApi}).
 *
 * <p>Who may read the data: with a token configured, only a request bearing it ({@code
 * Authorization: Bearer <token>}); without one, only a request from loopback that no proxy
 * forwarded. Who may change overrides: only a request bearing the token, so without one the API
 * is read-only, from loopback too (any local process, or a page a local browser opens, could post
 * to a loopback port). A change must be sent as {@code application/json}, which a form of another
 * site cannot send at all, and its script only after a CORS preflight. The page itself holds no
 * data, so it is served to anyone who can reach it; it asks for the token when the data needs one.
 * Every answer forbids caching, framing and sniffing, and the page may run only its own inline
 * script and style.
 */
public final class StatusPage {

  /** The query that asks for the data: what the page fetches on every front end. */
  public static final String DATA_QUERY = "view=status";
  /** The query of the live overrides: GET reads them, POST changes one. */
  public static final String OVERRIDES_QUERY = "view=overrides";
  /** The largest body a change may have; a change is a few hundred bytes. */
  public static final int MAX_BODY = 16 * 1024;

  private static final Page PAGE = Page.load();
  private static final String WRONG_TOKEN = "a valid bearer token is required (tollgate.status.token)";

  private final StatusReports reports;
  private final Overrides overrides;
  private final Optional<byte[]> token;
  private final boolean callerTrusted;

  private StatusPage(Gate gate, Optional<String> token, boolean callerTrusted) {
    this.reports = StatusReports.of(gate);
    this.overrides = gate.overrides();
    this.token = token.map(t -> t.getBytes(StandardCharsets.UTF_8));
    this.callerTrusted = callerTrusted;
  }

  /** The page of {@code gate}, its data guarded by {@code tollgate.status.token} and loopback. */
  public static StatusPage of(Gate gate) {
    return new StatusPage(gate, gate.config().status().token(), false);
  }

  /**
   * The page of {@code gate} for a front end that authorizes its callers itself (Spring Boot's
   * actuator security): every request that reaches it is answered, changes too.
   */
  public static StatusPage trustingCaller(Gate gate) {
    return new StatusPage(gate, Optional.empty(), true);
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
   * @param contentType the {@code Content-Type} header, or null
   * @param body the request's body, or null when it has none; read (at most {@link #MAX_BODY}
   *     bytes and one more) only for a change its caller may make, on the caller's thread
   */
  public record Request(String method, String query, String accept, String authorization,
      InetAddress peer, boolean forwarded, String contentType, InputStream body) {

    /** A request without a body. */
    public Request(String method, String query, String accept, String authorization,
        InetAddress peer, boolean forwarded) {
      this(method, query, accept, authorization, peer, forwarded, null, null);
    }
  }

  /** The answer: status, headers (content type included) and body. */
  public record Response(int status, Map<String, String> headers, byte[] body) {}

  public Response handle(Request request) {
    boolean overridesAsked = asks(request, OVERRIDES_QUERY);
    if (request.method().equals("POST") && overridesAsked) {
      return change(request);
    }
    if (!request.method().equals("GET")) {
      Map<String, String> headers = headers("application/json");
      headers.put("Allow", "GET, POST");
      return new Response(405, headers,
          error("the status page answers GET, and POST at ?" + OVERRIDES_QUERY));
    }
    if (!overridesAsked && wantsPage(request)) {
      Map<String, String> headers = headers("text/html; charset=utf-8");
      headers.put("Content-Security-Policy", PAGE.policy);
      return new Response(200, headers, PAGE.html);
    }
    Optional<String> refusal = refusal(request);
    if (refusal.isPresent()) {
      return unauthorized(refusal.get());
    }
    if (overridesAsked) {
      return json(OverridesApi.read(overrides));
    }
    return new Response(200, headers("application/json"), json(reports.current()));
  }

  /**
   * A change of the overrides: only with the token, as JSON, within {@link #MAX_BODY}. Its author
   * is the body's {@code by} (else {@code status-page}) and the address it came from, which the
   * caller cannot choose: {@code alice via 10.1.2.3}.
   */
  private Response change(Request request) {
    if (!callerTrusted) {
      if (token.isEmpty()) {
        return json(OverridesApi.error(403, "changing overrides needs tollgate.status.token,"
            + " sent as a bearer token: without it the status page is read-only"));
      }
      if (!bearsToken(request)) {
        return unauthorized(WRONG_TOKEN);
      }
    }
    if (!isJson(request.contentType())) {
      return json(OverridesApi.error(415, "a change is sent as Content-Type: application/json"));
    }
    byte[] body;
    try {
      body = request.body() == null ? new byte[0] : request.body().readNBytes(MAX_BODY + 1);
    } catch (IOException e) {
      return json(OverridesApi.error(400, "the body could not be read: " + e.getMessage()));
    }
    if (body.length > MAX_BODY) {
      return json(OverridesApi.error(413, "a change takes at most " + MAX_BODY + " bytes"));
    }
    OverrideRequest asked;
    try {
      asked = OverrideRequest.fromJson(body);
    } catch (IllegalArgumentException e) {
      return json(OverridesApi.error(400, e.getMessage()));
    }
    String by = asked.by() == null || asked.by().isBlank() ? "status-page" : asked.by().strip();
    String via = request.peer() == null ? "unknown" : request.peer().getHostAddress();
    return json(OverridesApi.change(overrides, asked.withBy(by + " via " + via)));
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

  private static boolean asks(Request request, String view) {
    return request.query() != null && ("&" + request.query() + "&").contains("&" + view + "&");
  }

  private static boolean wantsPage(Request request) {
    return !asks(request, DATA_QUERY) && request.accept() != null
        && request.accept().contains("text/html");
  }

  /** {@code application/json}, with or without parameters such as a charset. */
  private static boolean isJson(String contentType) {
    return contentType != null && contentType.strip().toLowerCase(Locale.ROOT)
        .matches("application/json\\s*(;.*)?");
  }

  private Optional<String> refusal(Request request) {
    if (callerTrusted) {
      return Optional.empty();
    }
    if (token.isPresent()) {
      return bearsToken(request) ? Optional.empty() : Optional.of(WRONG_TOKEN);
    }
    if (request.peer() != null && request.peer().isLoopbackAddress() && !request.forwarded()) {
      return Optional.empty();
    }
    return Optional.of("beyond loopback the status data needs tollgate.status.token,"
        + " sent as a bearer token");
  }

  /** Whether the request bears the configured token, compared in constant time. */
  private boolean bearsToken(Request request) {
    String given = request.authorization();
    boolean bearer = given != null && given.regionMatches(true, 0, "Bearer ", 0, 7);
    byte[] presented = bearer ? given.substring(7).trim().getBytes(StandardCharsets.UTF_8) : new byte[0];
    return token.isPresent() && MessageDigest.isEqual(presented, token.get());
  }

  private static Response unauthorized(String why) {
    Map<String, String> headers = headers("application/json");
    headers.put("WWW-Authenticate", "Bearer realm=\"tollgate\"");
    return new Response(401, headers, error(why));
  }

  private static Response json(OverridesApi.Answer answer) {
    return new Response(answer.status(), headers("application/json"), answer.body());
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
