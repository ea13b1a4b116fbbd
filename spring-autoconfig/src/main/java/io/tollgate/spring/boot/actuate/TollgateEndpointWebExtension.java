package io.tollgate.spring.boot.actuate;

import io.tollgate.gate.Gate;
import io.tollgate.status.StatusPage;
import io.tollgate.status.StatusReports;
import java.nio.charset.StandardCharsets;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.actuate.endpoint.web.annotation.EndpointWebExtension;
import org.springframework.lang.Nullable;
import org.springframework.util.MimeType;
import org.springframework.util.MimeTypeUtils;

/**
 * {@code /actuator/tollgate} on the web: the status page for a browser, the page's data at
 * {@code ?view=status} (the {@link io.tollgate.status.StatusReport} as JSON, what the page fetches
 * every two seconds), and the endpoint's own JSON for everyone else. A request reaches it only as
 * the actuator lets it reach any endpoint (its exposure, the app's security), so it answers every
 * request with the data: no token of Tollgate's applies here.
 *
 * <p>The actuator gives an operation no way to set response headers, so the page carries its
 * Content-Security-Policy in a meta element ({@link StatusPage#htmlWithPolicy()}), which governs
 * its script, style and fetches as the header would; framing and caching headers are left to the
 * app's security (Spring Security sets both by default). The page holds no data, and fetches the
 * data uncached.
 */
@EndpointWebExtension(endpoint = TollgateEndpoint.class)
public class TollgateEndpointWebExtension {

  /** {@code ?view=status}: the value of {@link StatusPage#DATA_QUERY}, which the page asks for. */
  static final String STATUS_VIEW = "status";

  private static final MimeType HTML = new MimeType("text", "html", StandardCharsets.UTF_8);

  private final TollgateEndpoint endpoint;
  private final StatusReports reports;

  public TollgateEndpointWebExtension(TollgateEndpoint endpoint, Gate gate) {
    this.endpoint = endpoint;
    // one for every reader, so that several open pages share a report a second
    this.reports = StatusReports.of(gate);
  }

  /**
   * Takes the place of {@link TollgateEndpoint#providers()} on the web, whose media types it shares.
   *
   * @param format what the request accepts, as the actuator reads its {@code Accept}
   * @param view {@code status} for the page's data, whatever the request accepts
   */
  @ReadOperation(producesFrom = EndpointFormat.class)
  public Object providers(EndpointFormat format, @Nullable String view) {
    if (STATUS_VIEW.equals(view)) {
      return new WebEndpointResponse<>(StatusPage.json(reports.current()), 200,
          MimeTypeUtils.APPLICATION_JSON);
    }
    if (format == EndpointFormat.HTML) {
      return new WebEndpointResponse<>(StatusPage.htmlWithPolicy(), 200, HTML);
    }
    return endpoint.providers();
  }
}
