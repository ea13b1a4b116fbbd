package io.tollgate.spring.boot.actuate;

import io.tollgate.gate.Gate;
import io.tollgate.overrides.OverrideRequest;
import io.tollgate.overrides.Overrides;
import io.tollgate.status.OverridesApi;
import io.tollgate.status.StatusPage;
import io.tollgate.status.StatusReports;
import java.nio.charset.StandardCharsets;
import java.security.Principal;
import java.util.Map;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.actuate.endpoint.web.annotation.EndpointWebExtension;
import org.springframework.lang.Nullable;
import org.springframework.util.MimeType;
import org.springframework.util.MimeTypeUtils;

/**
 * {@code /actuator/tollgate} on the web: the status page for a browser, the page's data at
 * {@code ?view=status} (the {@link io.tollgate.status.StatusReport} as JSON, what the page fetches
 * every two seconds), the live overrides at {@code ?view=overrides} and a change of them as a
 * POST, and the endpoint's own JSON for everyone else. A request reaches it only as the actuator
 * lets it reach any endpoint (its exposure, its access, the app's security), so it answers every
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
  /** {@code ?view=overrides}: the live overrides and their latest changes. */
  static final String OVERRIDES_VIEW = "overrides";

  private static final MimeType HTML = new MimeType("text", "html", StandardCharsets.UTF_8);

  private final TollgateEndpoint endpoint;
  private final StatusReports reports;
  private final Overrides overrides;

  public TollgateEndpointWebExtension(TollgateEndpoint endpoint, Gate gate) {
    this.endpoint = endpoint;
    // one for every reader, so that several open pages share a report a second
    this.reports = StatusReports.of(gate);
    this.overrides = gate.overrides();
  }

  /**
   * Takes the place of {@link TollgateEndpoint#providers()} on the web, whose media types it shares.
   *
   * @param format what the request accepts, as the actuator reads its {@code Accept}
   * @param view {@code status} for the page's data, {@code overrides} for the live overrides,
   *     whatever the request accepts
   */
  @ReadOperation(producesFrom = EndpointFormat.class)
  public Object providers(EndpointFormat format, @Nullable String view) {
    if (STATUS_VIEW.equals(view)) {
      return new WebEndpointResponse<>(StatusPage.json(reports.current()), 200,
          MimeTypeUtils.APPLICATION_JSON);
    }
    if (OVERRIDES_VIEW.equals(view)) {
      return json(OverridesApi.read(overrides));
    }
    if (format == EndpointFormat.HTML) {
      return new WebEndpointResponse<>(StatusPage.htmlWithPolicy(), 200, HTML);
    }
    return endpoint.providers();
  }

  /**
   * {@code POST /actuator/tollgate}: sets or removes a live override, with the fields of the
   * status page's API ({@link OverrideRequest}). The actuator reads a body as an object of texts
   * only, so {@code limits} is written as one: {@code "requests-per-minute=600,
   * tokens-per-day=1000000"}. Only a caller the actuator lets through reaches it, and only when
   * the endpoint's access allows writes. The change is made by the authenticated user when there
   * is one, so that the audit list names who the app's security knows rather than what the body
   * claims; else by the body's {@code by}, else {@code actuator}.
   *
   * @param principal the authenticated user, as the actuator passes it; null when anonymous
   */
  @WriteOperation
  public WebEndpointResponse<byte[]> change(@Nullable String action, @Nullable String tenant,
      @Nullable String provider, @Nullable String model, @Nullable String limits,
      @Nullable String by, @Nullable Principal principal) {
    String author = principal != null ? principal.getName()
        : by != null && !by.isBlank() ? by : "actuator";
    Map<String, String> parsed;
    try {
      parsed = limits == null ? null : OverrideRequest.limitsFromText(limits);
    } catch (IllegalArgumentException e) {
      return json(OverridesApi.error(400, e.getMessage()));
    }
    return json(OverridesApi.change(overrides,
        new OverrideRequest(action, tenant, provider, model, parsed, author)));
  }

  private static WebEndpointResponse<byte[]> json(OverridesApi.Answer answer) {
    return new WebEndpointResponse<>(answer.body(), answer.status(), MimeTypeUtils.APPLICATION_JSON);
  }
}
