package io.tollgate.servlet;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.context.Scope;
import io.tollgate.config.ByteSizes;
import io.tollgate.config.ConfigException;
import io.tollgate.config.Limiters;
import io.tollgate.config.Mode;
import io.tollgate.config.PriorityConfig;
import io.tollgate.config.TenantsConfig;
import io.tollgate.config.TokensConfig;
import io.tollgate.config.TollgateConfig;
import io.tollgate.gate.Admission;
import io.tollgate.gate.Gate;
import io.tollgate.gate.InboundBody;
import io.tollgate.gate.TenantSource;
import io.tollgate.gate.Tenants;
import io.tollgate.limiter.Decision;
import io.tollgate.limiter.RateLimiter;
import io.tollgate.llm.ProviderApi;
import io.tollgate.llm.SyntheticResponse;
import io.tollgate.llm.TokenCounter;
import io.tollgate.router.ProviderBreakers;
import io.tollgate.telemetry.Telemetry;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.FilterConfig;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Clock;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Inbound per-tenant limiting for web apps that serve LLM-backed endpoints: each request is
 * charged one request and its estimated tokens on its tenant's limits ({@code tollgate.tenants}),
 * refused with a 429 when they have no room, and settled with the {@code usage} the app's response
 * reports. The tenant is bound to the request ({@link Tenants}) so that the LLM calls the app makes
 * while serving it are charged to the same tenant. With {@code tenants.user-header}, the user a
 * request names inside its tenant is charged on {@code tenants.user-limits} together with the
 * tenant, and bound with it.
 *
 * <p>Every rule (the tenant checks, the limits, shadow mode, refusals and rate-limit headers,
 * spans and metrics) is the {@link Gate}'s ({@link Gate#admitInbound}); the filter reads the
 * request, resolves its tenant, holds its body for the estimate, taps the response for its usage
 * and writes the answer the gate gives.
 *
 * <p>In {@code web.xml}:
 *
 * <pre>{@code
 * <filter>
 *   <filter-name>tollgate</filter-name>
 *   <filter-class>io.tollgate.servlet.TollgateFilter</filter-class>
 *   <async-supported>true</async-supported>
 *   <init-param><param-name>config</param-name><param-value>classpath:tollgate.yaml</param-value></init-param>
 * </filter>
 * }</pre>
 *
 * <p>In code: {@code new TollgateFilter(config)}, {@code new TollgateFilter(config, limiter)} or
 * {@link #builder(TollgateConfig)}; a filter built in code ignores init-params. A configuration the
 * filter cannot run with fails {@link #init} with a {@link ServletException} naming the key, so the
 * container refuses to deploy the app. See {@code docs/servlet-filter.md}.
 */
public final class TollgateFilter implements Filter {

  /** Init-param: where the configuration is, a file path or {@code classpath:tollgate.yaml}. Required. */
  public static final String CONFIG_PARAM = "config";
  /** Init-param: {@code reject} (default) or {@code default:<tenant id>}; see {@link MissingTenant}. */
  public static final String MISSING_TENANT_PARAM = "missing-tenant";
  /** Init-param: {@code config} (default: {@code tollgate.tenants}' header or API key) or {@code principal}. */
  public static final String TENANT_FROM_PARAM = "tenant-from";
  /**
   * Init-param: the most bytes of a JSON body held to estimate it, a size such as {@code 1MB},
   * {@code 512KB} or a number of bytes; default {@code tokens.max-buffered-body} (1 MiB unless
   * configured). A larger body is held only that far and estimated by its size.
   */
  public static final String MAX_BUFFERED_BODY_PARAM = "max-buffered-body";
  /** Init-param: the API the app's endpoints speak, {@code openai} (default), {@code azure-openai} or {@code anthropic}. */
  public static final String API_PARAM = "api";

  /** {@code tokens.max-buffered-body}'s default: 1 MiB. */
  public static final int DEFAULT_MAX_BUFFERED_BODY = TokensConfig.DEFAULT_MAX_BUFFERED_BODY;
  /** The largest {@code max-buffered-body} accepted: 64 MiB. */
  public static final int MAX_MAX_BUFFERED_BODY = TokensConfig.MAX_MAX_BUFFERED_BODY;
  /**
   * The prompt tokens charged for a body the filter does not read (not JSON, or none), on top of
   * {@code tokens.default-max-output}; the settle corrects both.
   */
  public static final long UNREAD_PROMPT_TOKENS = io.tollgate.gate.InboundRequest.UNREAD_PROMPT_TOKENS;
  /**
   * The limiter scope of inbound charges: {@code Subject.of("inbound", tenant)}. Outbound calls
   * are charged by the gate under {@code tenant}, so a request that the app serves with an LLM
   * call is counted once on each side, never twice on one.
   */
  public static final String SCOPE = io.tollgate.gate.InboundRequest.SCOPE;
  /** Request attribute: the limiter's {@link Decision} for this request (also in shadow mode). */
  public static final String DECISION_ATTRIBUTE = "io.tollgate.servlet.decision";
  /** Request attribute: the tenant id the request is charged to (what {@link Tenants#current()} gives). */
  public static final String TENANT_ATTRIBUTE = "io.tollgate.servlet.tenant";
  /**
   * Request attribute: the user inside the tenant the request is charged to ({@code
   * tenants.user-header}; what {@link Tenants#currentUser()} gives), when it names one.
   */
  public static final String USER_ATTRIBUTE = "io.tollgate.servlet.user";

  /** Null for a filter made by the container, which reads its init-params at {@link #init}. */
  private final Builder preset;
  private volatile Running running;

  /** For {@code web.xml}: configured by init-params at {@link #init}. */
  public TollgateFilter() {
    this.preset = null;
  }

  /** A filter with its own limiter ({@code tollgate.redis}, or in memory), closed by {@link #destroy()}. */
  public TollgateFilter(TollgateConfig config) {
    this(builder(config));
  }

  /** A filter on {@code limiter}, which the caller owns and closes. */
  public TollgateFilter(TollgateConfig config, RateLimiter limiter) {
    this(builder(config).limiter(limiter));
  }

  private TollgateFilter(Builder builder) {
    builder.validate();
    this.preset = builder.copy();
  }

  public static Builder builder(TollgateConfig config) {
    return new Builder(config);
  }

  @Override
  public void init(FilterConfig filterConfig) throws ServletException {
    Builder builder;
    try {
      builder = preset != null ? preset : InitParams.read(filterConfig);
      builder.validate();
    } catch (IllegalArgumentException e) {
      throw new ServletException(e.getMessage(), e);
    }
    running = builder.start();
    if (running.mode != Mode.OFF) {
      TokenCounter.startLoading(); // on a thread of its own; the first requests are estimated
    }
  }

  @Override
  public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain)
      throws IOException, ServletException {
    Running run = running;
    if (run == null) {
      throw new ServletException(TollgateFilter.class.getSimpleName() + " was not initialised");
    }
    if (run.mode == Mode.OFF
        || !(req instanceof HttpServletRequest request)
        || !(res instanceof HttpServletResponse response)
        || "OPTIONS".equals(request.getMethod()) // a CORS preflight names no tenant and costs nothing
        || run.skip.test(request)) {
      chain.doFilter(req, res);
      return;
    }
    if (run.status != null && run.status.matches(request)) {
      run.status.answer(request, response);
      return;
    }
    if (request.getAttribute(TENANT_ATTRIBUTE) instanceof String charged) {
      // A later dispatch (async, forward, include, error) of a request already charged.
      String user = request.getAttribute(USER_ATTRIBUTE) instanceof String named ? named : null;
      try (Tenants.Scope ignored = Tenants.bind(charged, user)) {
        chain.doFilter(req, res);
      }
      return;
    }
    HeldBody held = new HeldBody(request, run.maxBufferedBody);
    Admission admission = run.gate.admitInbound(io.tollgate.gate.InboundRequest.builder(run.tenantSource)
        .tenant(run.resolver.tenantOf(request).or(run.missingTenant::defaultTenant))
        .user(run.userOf(request))
        .api(run.api)
        .path(request.getRequestURI())
        .bodiless("GET".equals(request.getMethod()) || "HEAD".equals(request.getMethod())
            || request.getContentLengthLong() == 0)
        .body(held::read)
        .priority(run.priorityHeader == null ? Optional.empty()
            : Optional.ofNullable(request.getHeader(run.priorityHeader)))
        .build());
    admission.tenant().ifPresent(tenant -> request.setAttribute(TENANT_ATTRIBUTE, tenant));
    admission.user().ifPresent(user -> request.setAttribute(USER_ATTRIBUTE, user));
    admission.decision().ifPresent(decision -> request.setAttribute(DECISION_ATTRIBUTE, decision));
    Optional<SyntheticResponse> refusal = admission.refusal();
    if (refusal.isPresent()) {
      if (!held.whole() && hasBody(request)) {
        // its body is left unread: the client must not send its next request on this connection,
        // which the container may close once the answer is written
        response.setHeader("Connection", "close");
      }
      AnswerWriter.send(response, refusal.get());
      return;
    }
    if (admission.tenant().isEmpty()) { // shadow mode: a request it would refuse passes, unbound
      chain.doFilter(req, res);
      return;
    }
    String tenant = admission.tenant().get();
    String user = admission.user().orElse(null);
    if (!admission.settles()) { // a tenant without limits, or one shadow mode would have refused
      // a request that was charged goes on through the wrapper, which holds what was read of its body
      ServletRequest served = admission.decision().isPresent() ? held.request() : req;
      // advisory mode: what enforcing would have answered, as headers on the response served
      admission.limitHeaders().forEach(field -> response.setHeader(field.name(), field.value()));
      try (Tenants.Scope ignored = Tenants.bind(tenant, user); Scope span = admission.makeCurrent()) {
        chain.doFilter(served, res);
      } finally {
        admission.settle(response.getStatus(), null);
      }
      return;
    }
    admitted(request, response, chain, tenant, user, admission, held.request());
  }

  private static boolean hasBody(HttpServletRequest request) {
    return request.getContentLengthLong() > 0 || request.getHeader("Transfer-Encoding") != null;
  }

  private static void admitted(HttpServletRequest request, HttpServletResponse response,
      FilterChain chain, String tenant, String user, Admission admission, InboundRequest inbound)
      throws IOException, ServletException {
    InboundCall call = new InboundCall(admission, response);
    TappingResponse tapped = new TappingResponse(response, call, admission.limitHeaders());
    inbound.attach(tapped, call, tenant, user);
    Throwable failure = null;
    try (Tenants.Scope ignored = Tenants.bind(tenant, user); Scope span = admission.makeCurrent()) {
      chain.doFilter(inbound, tapped);
    } catch (IOException | ServletException | RuntimeException | Error e) {
      failure = e;
      throw e;
    } finally {
      if (inbound.asyncStartedHere()) {
        // settled by the container's AsyncListener events (InboundCall)
      } else if (request.isAsyncStarted()) {
        request.getAsyncContext().addListener(call); // started around the wrapper: still settled
      } else {
        call.end(failure);
      }
    }
  }

  @Override
  public void destroy() {
    Running run = running;
    running = null;
    if (run != null) {
      run.close();
    }
  }

  /** Inbound tenant ids charged on their own now ({@code tenants.max-tracked}); a test probe. */
  int trackedTenants() {
    Running run = running;
    return run == null || run.gate == null ? 0 : run.gate.trackedInboundTenants();
  }

  /**
   * The body of one request as the gate asks for it: held ({@link InboundRequest#reading}) only
   * when the tenant's limits count tokens, else left to stream.
   */
  private static final class HeldBody {
    private final HttpServletRequest request;
    private final int maxBufferedBody;
    private InboundRequest read;

    HeldBody(HttpServletRequest request, int maxBufferedBody) {
      this.request = request;
      this.maxBufferedBody = maxBufferedBody;
    }

    InboundBody read() throws IOException {
      read = InboundRequest.reading(request, maxBufferedBody);
      if (!read.json()) {
        return InboundBody.unread();
      }
      return read.whole() ? InboundBody.whole(read.heldBody())
          : InboundBody.prefix(read.heldBody(), read::knownLength, !read.lengthUndeclared());
    }

    /** True when the whole body was read. */
    boolean whole() {
      return read != null && read.whole();
    }

    /** The request as the app gets it: with what was held of its body, else streaming it. */
    InboundRequest request() {
      if (read == null) {
        read = InboundRequest.streamed(request);
      }
      return read;
    }
  }

  /** Configures a filter made in code. */
  public static final class Builder {
    private final TollgateConfig config;
    private Gate gate;
    private RateLimiter limiter;
    private TenantResolver tenantResolver;
    private MissingTenant missingTenant = MissingTenant.reject();
    /** Null: {@code tokens.max-buffered-body}. */
    private Integer maxBufferedBody;
    private ProviderApi api = ProviderApi.OPENAI;
    private Telemetry telemetry = Telemetry.global();
    private Predicate<HttpServletRequest> skip = request -> false;

    private Builder(TollgateConfig config) {
      this.config = Objects.requireNonNull(config, "config");
    }

    /**
     * The gate that admits requests, which the caller owns and closes (the app's one gate, whose
     * limiter and telemetry it uses); it must run this filter's configuration. Default: a gate of
     * the filter's own on {@link #limiter} and {@link #telemetry}.
     */
    public Builder gate(Gate gate) {
      this.gate = Objects.requireNonNull(gate, "gate");
      return this;
    }

    /** The limiter to charge, which the caller owns and closes; default one made from {@code tollgate.redis}. */
    public Builder limiter(RateLimiter limiter) {
      this.limiter = Objects.requireNonNull(limiter, "limiter");
      return this;
    }

    /** Who a request is charged to; default {@code tollgate.tenants}' header or API-key header. */
    public Builder tenantResolver(TenantResolver tenantResolver) {
      this.tenantResolver = Objects.requireNonNull(tenantResolver, "tenantResolver");
      return this;
    }

    /** What to do with a request that names no tenant; default {@link MissingTenant#reject()}. */
    public Builder missingTenant(MissingTenant missingTenant) {
      this.missingTenant = Objects.requireNonNull(missingTenant, "missingTenant");
      return this;
    }

    /**
     * The most bytes of a JSON body held to estimate it, 0 to 64 MiB; default {@code
     * tokens.max-buffered-body}. A larger body is held only that far and estimated by its size; 0
     * holds none of a body, estimating every JSON body by its declared size.
     */
    public Builder maxBufferedBody(int bytes) {
      if (bytes < 0 || bytes > MAX_MAX_BUFFERED_BODY) {
        throw new IllegalArgumentException(MAX_BUFFERED_BODY_PARAM + " must be from 0 to "
            + ByteSizes.format(MAX_MAX_BUFFERED_BODY) + ", was " + ByteSizes.format(bytes));
      }
      this.maxBufferedBody = bytes;
      return this;
    }

    /** The API the app's endpoints speak: how bodies are estimated and refusals shaped. Default OpenAI. */
    public Builder api(ProviderApi api) {
      this.api = Objects.requireNonNull(api, "api");
      return this;
    }

    /**
     * Where the {@code tollgate.inbound} spans and the metrics go; default {@link Telemetry#global()}
     * (the app's or the OpenTelemetry agent's {@code GlobalOpenTelemetry}, once set). A {@link
     * #gate} given records to its own.
     */
    public Builder telemetry(Telemetry telemetry) {
      this.telemetry = Objects.requireNonNull(telemetry, "telemetry");
      return this;
    }

    /** Spans and metrics to {@code openTelemetry}. */
    public Builder openTelemetry(OpenTelemetry openTelemetry) {
      return telemetry(Telemetry.of(openTelemetry));
    }

    /**
     * Requests the filter passes untouched, neither charged nor bound to a tenant, though its URL
     * mapping covers them (a health probe under a catch-all mapping); default none. Asked for every
     * request, on the request thread.
     */
    public Builder skip(Predicate<HttpServletRequest> skip) {
      this.skip = Objects.requireNonNull(skip, "skip");
      return this;
    }

    public TollgateFilter build() {
      return new TollgateFilter(this);
    }

    private void validate() {
      if (config.mode() == Mode.OFF) {
        return;
      }
      if (config.tenants().isEmpty()) {
        throw new ConfigException(TollgateConfig.ROOT + ".tenants",
            "is required by the servlet filter: it says who each request is charged to and what it may spend");
      }
      TenantsConfig tenants = config.tenants().get();
      Optional<String> fallback = missingTenant.defaultTenant();
      if (tenants.knownOnly() && fallback.isPresent() && !tenants.isKnown(fallback.get())) {
        throw new ConfigException(TollgateConfig.ROOT + ".tenants.known-only", "is true, and the tenant that "
            + "requests without one are charged to (missing-tenant: " + missingTenant + ") is not listed under "
            + TollgateConfig.ROOT + ".tenants.overrides, so each of them would be refused");
      }
    }

    private Builder copy() {
      Builder copy = new Builder(config);
      copy.gate = gate;
      copy.limiter = limiter;
      copy.tenantResolver = tenantResolver;
      copy.missingTenant = missingTenant;
      copy.maxBufferedBody = maxBufferedBody;
      copy.api = api;
      copy.telemetry = telemetry;
      copy.skip = skip;
      return copy;
    }

    private Running start() {
      if (config.mode() == Mode.OFF) {
        return new Running(this, null, AutoCloseables.NONE);
      }
      if (gate != null) {
        return new Running(this, gate, AutoCloseables.NONE);
      }
      // A gate of the filter's own, on breakers of its own JVM: it sends no call, so they are never
      // asked, and nothing of theirs is shared through Redis.
      RateLimiter usedLimiter = limiter != null ? limiter : Limiters.create(config.redis());
      ProviderBreakers breakers = ProviderBreakers.create(config.breaker(), Optional.empty(), Clock.systemUTC());
      Gate own = Gate.builder(config).frontEnd("filter").limiter(usedLimiter).breakers(breakers)
          .telemetry(telemetry).build();
      return new Running(this, own, limiter != null
          ? AutoCloseables.of(own, breakers) : AutoCloseables.of(own, breakers, usedLimiter));
    }
  }

  /** What the filter made and closes at {@link #destroy()}, in order. */
  private record AutoCloseables(AutoCloseable... parts) {
    static final AutoCloseables NONE = new AutoCloseables();

    static AutoCloseables of(AutoCloseable... parts) {
      return new AutoCloseables(parts);
    }

    void close() {
      for (AutoCloseable part : parts) {
        try {
          part.close();
        } catch (Exception e) {
          System.getLogger(TollgateFilter.class.getName())
              .log(System.Logger.Level.DEBUG, "closing " + part + " failed", e);
        }
      }
    }
  }

  /** Everything a request needs, fixed at {@link #init}. */
  private static final class Running {
    final Mode mode;
    /** Null in mode off. */
    final Gate gate;
    final AutoCloseables owned;
    final TenantResolver resolver;
    final MissingTenant missingTenant;
    final TenantSource tenantSource;
    /** Null without {@code tenants.user-header}. */
    final String userHeader;
    final int maxBufferedBody;
    final ProviderApi api;
    final Predicate<HttpServletRequest> skip;
    /** Null without {@code tollgate.status.path}, and in mode off. */
    final StatusRoute status;
    /** The header naming a request's priority class ({@code priority.header}), or null. */
    final String priorityHeader;

    Running(Builder b, Gate gate, AutoCloseables owned) {
      Optional<TenantsConfig> section = b.config.tenants();
      this.mode = b.config.mode();
      this.gate = gate;
      this.owned = owned;
      this.missingTenant = b.missingTenant;
      this.maxBufferedBody = b.maxBufferedBody != null ? b.maxBufferedBody
          : b.config.tokens().maxBufferedBody();
      this.api = b.api;
      this.skip = b.skip;
      this.status = gate == null ? null : StatusRoute.of(gate);
      this.resolver = b.tenantResolver != null ? b.tenantResolver
          : section.map(TenantResolver::from).orElse(request -> Optional.empty());
      this.tenantSource = tenantSource(b.tenantResolver, section);
      this.priorityHeader = b.config.priority().flatMap(PriorityConfig::header).orElse(null);
      this.userHeader = section.flatMap(TenantsConfig::userHeader).orElse(null);
    }

    /** The user the request names inside its tenant: {@code tenants.user-header}'s value, blank or absent none. */
    Optional<String> userOf(HttpServletRequest request) {
      String user = userHeader == null ? null : request.getHeader(userHeader);
      return user == null || user.isBlank() ? Optional.empty() : Optional.of(user);
    }

    /** Where the tenant id comes from, as the gate's answers name it. */
    private static TenantSource tenantSource(TenantResolver custom, Optional<TenantsConfig> tenants) {
      if (custom == TenantResolver.principal()) {
        return TenantSource.principal();
      }
      if (custom != null || tenants.isEmpty()) {
        return TenantSource.custom();
      }
      return TenantSource.of(tenants.get());
    }

    void close() {
      owned.close();
    }
  }
}
