package io.tollgate.servlet;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.context.Scope;
import io.tollgate.config.ConfigException;
import io.tollgate.config.Limiters;
import io.tollgate.config.LimitsConfig;
import io.tollgate.config.Mode;
import io.tollgate.config.TenantIdRule;
import io.tollgate.config.TenantsConfig;
import io.tollgate.config.TokensConfig;
import io.tollgate.config.ByteSizes;
import io.tollgate.config.TollgateConfig;
import io.tollgate.gate.Tenants;
import io.tollgate.limiter.BoundedSubjects;
import io.tollgate.limiter.Decision;
import io.tollgate.limiter.Dimension;
import io.tollgate.limiter.Limits;
import io.tollgate.limiter.RateLimiter;
import io.tollgate.limiter.Subject;
import io.tollgate.llm.Headers;
import io.tollgate.llm.LlmEndpoint;
import io.tollgate.llm.LlmProtocol;
import io.tollgate.llm.LlmRequest;
import io.tollgate.llm.ProviderApi;
import io.tollgate.llm.RateLimitNotice;
import io.tollgate.llm.SyntheticResponse;
import io.tollgate.llm.TokenCounter;
import io.tollgate.telemetry.Decisions;
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
import java.lang.System.Logger.Level;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * Inbound per-tenant limiting for web apps that serve LLM-backed endpoints: each request is
 * charged one request and its estimated tokens on its tenant's limits ({@code tollgate.tenants}),
 * refused with a 429 when they have no room, and settled with the {@code usage} the app's response
 * reports. The tenant is bound to the request ({@link Tenants}) so that the LLM calls the app makes
 * while serving it are charged to the same tenant.
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
  public static final long UNREAD_PROMPT_TOKENS = 128;
  /**
   * The limiter scope of inbound charges: {@code Subject.of("inbound", tenant)}. Outbound calls
   * are charged by the gate under {@code tenant}, so a request that the app serves with an LLM
   * call is counted once on each side, never twice on one.
   */
  public static final String SCOPE = "inbound";
  /** Request attribute: the limiter's {@link Decision} for this request (also in shadow mode). */
  public static final String DECISION_ATTRIBUTE = "io.tollgate.servlet.decision";
  /** Request attribute: the tenant id the request is charged to (what {@link Tenants#current()} gives). */
  public static final String TENANT_ATTRIBUTE = "io.tollgate.servlet.tenant";

  /** The path a body is read as when the app's own path names no LLM endpoint. */
  private static final String CHAT_PATH = "/v1/chat/completions";
  private static final System.Logger LOG = System.getLogger(TollgateFilter.class.getName());
  private static final long SHADOW_LOG_INTERVAL = TimeUnit.SECONDS.toNanos(10);

  /** Null for a filter made by the container, which reads its init-params at {@link #init}. */
  private final Builder preset;
  private volatile Running running;
  private final AtomicLong lastShadowLog = new AtomicLong(System.nanoTime() - SHADOW_LOG_INTERVAL);
  private final AtomicLong unloggedShadowRefusals = new AtomicLong();

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
    if (request.getAttribute(TENANT_ATTRIBUTE) instanceof String charged) {
      // A later dispatch (async, forward, include, error) of a request already charged.
      try (Tenants.Scope ignored = Tenants.bind(charged)) {
        chain.doFilter(req, res);
      }
      return;
    }
    Optional<String> resolved = run.resolver.tenantOf(request).or(run.missingTenant::defaultTenant);
    if (resolved.isEmpty()) {
      refuseTenant(run, req, res, chain, Decisions.MISSING_TENANT, run.missingTenantAnswer);
      return;
    }
    if (!TenantIdRule.isValid(resolved.get())) {
      // the id is neither answered, logged nor traced: it may be a forged log line or 10 KB
      refuseTenant(run, req, res, chain, Decisions.INVALID_TENANT, run.invalidTenantAnswer);
      return;
    }
    String tenant = run.tenants.normalize(resolved.get());
    if (run.tenants.knownOnly() && !run.tenants.isKnown(tenant)) {
      refuseTenant(run, req, res, chain, Decisions.UNKNOWN_TENANT, Answers.unknownTenant());
      return;
    }
    request.setAttribute(TENANT_ATTRIBUTE, tenant);
    Limits limits = run.limitsFor(tenant);
    InboundTrace trace = InboundTrace.start(run.telemetry, run.mode, run.tenants, tenant);
    if (limits == null) { // this tenant is not limited: only bound, for its outbound calls
      trace.unlimited();
      try (Tenants.Scope ignored = Tenants.bind(tenant); Scope span = trace.makeCurrent()) {
        chain.doFilter(req, res);
      } finally {
        trace.ended(response.getStatus());
      }
      return;
    }
    limited(run, request, response, chain, tenant, limits, trace);
  }

  /**
   * A request the filter charges to nobody: refused with {@code answer}, or in shadow mode passed
   * on as it came, unbound.
   */
  private static void refuseTenant(Running run, ServletRequest req, ServletResponse res, FilterChain chain,
      String decision, SyntheticResponse answer) throws IOException, ServletException {
    InboundTrace.refusedTenant(run.telemetry, run.mode, decision);
    if (run.mode == Mode.SHADOW) {
      chain.doFilter(req, res);
    } else {
      if (hasBody((HttpServletRequest) req)) {
        // its body is left unread: the client must not send its next request on this connection,
        // which the container may close once the answer is written
        ((HttpServletResponse) res).setHeader("Connection", "close");
      }
      Answers.send((HttpServletResponse) res, answer);
    }
  }

  private static boolean hasBody(HttpServletRequest request) {
    return request.getContentLengthLong() > 0 || request.getHeader("Transfer-Encoding") != null;
  }

  private void limited(Running run, HttpServletRequest request, HttpServletResponse response,
      FilterChain chain, String tenant, Limits limits, InboundTrace trace)
      throws IOException, ServletException {
    boolean countsTokens = limits.capacity(Dimension.TOKENS) >= 0;
    InboundRequest inbound = countsTokens
        ? InboundRequest.reading(request, run.maxBufferedBody)
        : InboundRequest.streamed(request);
    LlmRequest llmRequest = countsTokens ? run.read(inbound, request) : null;
    long tokens = !countsTokens ? 0
        : llmRequest != null ? llmRequest.estimate().totalTokens() : run.unreadEstimate;

    Subject subject = run.tenants.subject(SCOPE, tenant);
    trace.estimated(llmRequest, tokens);
    long start = System.nanoTime();
    Decision decision = run.limiter.reserve(subject, limits, 1, tokens);
    trace.decided(decision, tokens, System.nanoTime() - start);
    request.setAttribute(DECISION_ATTRIBUTE, decision);
    if (!decision.allowed()) {
      if (run.mode == Mode.ENFORCE) {
        SyntheticResponse refusal = Answers.refusal(run.protocol, decision, tokens);
        trace.ended(refusal.status()); // before the client can see the answer
        if (!inbound.whole() && hasBody(request)) {
          response.setHeader("Connection", "close"); // as for a refused tenant: the body is unread
        }
        Answers.send(response, refusal);
        return;
      }
      reportShadowRefusal(subject, decision, tokens);
      try (Tenants.Scope ignored = Tenants.bind(tenant); Scope span = trace.makeCurrent()) {
        chain.doFilter(inbound, response);
      } finally {
        trace.ended(response.getStatus());
      }
      return;
    }

    boolean bodiless = "GET".equals(request.getMethod()) || "HEAD".equals(request.getMethod())
        || request.getContentLengthLong() == 0;
    InboundCall call = new InboundCall(run.limiter, decision.reservation().orElseThrow(), run.protocol,
        llmRequest, response, countsTokens, bodiless, trace,
        llmRequest != null && inbound.lengthUndeclared() && !inbound.whole() ? inbound::knownLength : null);
    List<Headers.Field> headers = run.mode == Mode.ENFORCE
        ? Answers.limitHeaders(run.protocol, decision, tokens)
        : List.of(); // shadow: the client sees what it would see without Tollgate
    TappingResponse tapped = new TappingResponse(response, call, headers);
    inbound.attach(tapped, call, tenant);
    Throwable failure = null;
    try (Tenants.Scope ignored = Tenants.bind(tenant); Scope span = trace.makeCurrent()) {
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

  /** Shadow mode reports what enforcing would have refused: logged, at most once per 10 s. */
  private void reportShadowRefusal(Subject subject, Decision decision, long tokens) {
    long now = System.nanoTime();
    long last = lastShadowLog.get();
    if (now - last < SHADOW_LOG_INTERVAL || !lastShadowLog.compareAndSet(last, now)) {
      unloggedShadowRefusals.incrementAndGet();
      return;
    }
    long more = unloggedShadowRefusals.getAndSet(0);
    RateLimitNotice notice = Answers.notice(decision, tokens);
    LOG.log(Level.INFO, "shadow mode: a request of " + subject + " would have been refused on "
        + notice.limitedBy().label() + (notice.neverFits() ? " (it can never fit)" : "")
        + (more > 0 ? " (" + more + " more refusals since the last report)" : ""));
  }

  @Override
  public void destroy() {
    Running run = running;
    running = null;
    if (run != null && run.ownsLimiter) {
      run.given.close();
    }
  }

  /** Inbound tenant ids charged on their own now ({@code tenants.max-tracked}); a test probe. */
  int trackedTenants() {
    Running run = running;
    return run == null || run.limiter == null ? 0 : run.limiter.tracked();
  }

  /** Configures a filter made in code. */
  public static final class Builder {
    private final TollgateConfig config;
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
     * (the app's or the OpenTelemetry agent's {@code GlobalOpenTelemetry}, once set).
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
        return new Running(this, null, false);
      }
      boolean owns = limiter == null;
      return new Running(this, owns ? Limiters.create(config.redis()) : limiter, owns);
    }
  }

  /** Everything a request needs, fixed at {@link #init}. */
  private static final class Running {
    final Mode mode;
    /** The limiter given or made; closed by {@link #destroy()} when {@link #ownsLimiter}. */
    final RateLimiter given;
    /** What requests are charged on: {@link #given}, the inbound tenants bounded. Null in mode off. */
    final BoundedSubjects limiter;
    final boolean ownsLimiter;
    /** Null in mode off without a tenants section. */
    final TenantsConfig tenants;
    final TenantResolver resolver;
    final MissingTenant missingTenant;
    final SyntheticResponse missingTenantAnswer;
    final SyntheticResponse invalidTenantAnswer;
    final int maxBufferedBody;
    final LlmProtocol protocol;
    final Telemetry telemetry;
    final Predicate<HttpServletRequest> skip;
    final long defaultMaxOutput;
    final long unreadEstimate;
    /** Null when tenants are not limited by default. */
    final Limits baseLimits;
    /** Tenants with an override; a null value means no limit at all. */
    final Map<String, Optional<Limits>> overrides = new HashMap<>();

    Running(Builder b, RateLimiter limiter, boolean ownsLimiter) {
      Optional<TenantsConfig> section = b.config.tenants();
      this.mode = b.config.mode();
      this.given = limiter;
      this.ownsLimiter = ownsLimiter;
      this.tenants = section.orElse(null);
      this.limiter = limiter == null ? null : BoundedSubjects.builder(limiter, SCOPE)
          .maxTracked(tenants.maxTracked())
          .pinned(tenants.knownTenants().stream().map(id -> tenants.subject(SCOPE, id)).collect(Collectors.toSet()))
          .build();
      this.missingTenant = b.missingTenant;
      this.maxBufferedBody = b.maxBufferedBody != null ? b.maxBufferedBody
          : b.config.tokens().maxBufferedBody();
      this.protocol = LlmProtocol.of(b.api);
      this.telemetry = b.telemetry;
      this.skip = b.skip;
      this.defaultMaxOutput = b.config.tokens().defaultMaxOutput();
      this.unreadEstimate = defaultMaxOutput + UNREAD_PROMPT_TOKENS;
      this.resolver = b.tenantResolver != null ? b.tenantResolver
          : section.map(TenantResolver::from).orElse(request -> Optional.empty());
      this.missingTenantAnswer = missingTenantAnswer(b.tenantResolver, section);
      this.invalidTenantAnswer = Answers.invalidTenant(tenantSource(b.tenantResolver, section));
      this.baseLimits = section.map(TenantsConfig::limits).map(Running::limitsOf).orElse(null);
      section.ifPresent(t -> t.knownTenants().forEach(
          id -> overrides.put(id, Optional.ofNullable(limitsOf(t.limitsFor(id))))));
    }

    /** Where the tenant id comes from, as an answer names it. */
    private static String tenantSource(TenantResolver custom, Optional<TenantsConfig> tenants) {
      if (custom == TenantResolver.principal()) {
        return "the authenticated user's name";
      }
      if (custom != null || tenants.isEmpty() || tenants.get().header().isEmpty()) {
        return "the tenant id";
      }
      return "the " + tenants.get().header().get() + " header";
    }

    private static Limits limitsOf(LimitsConfig config) {
      return config.isEmpty() ? null : config.toLimits();
    }

    private static SyntheticResponse missingTenantAnswer(TenantResolver custom, Optional<TenantsConfig> tenants) {
      if (custom == TenantResolver.principal()) {
        return Answers.missingTenant("an authenticated user", true, false);
      }
      if (custom != null || tenants.isEmpty()) {
        return Answers.missingTenant(null, false, false);
      }
      Optional<String> header = tenants.get().header();
      if (header.isPresent()) {
        return Answers.missingTenant("the " + header.get() + " header", false, false);
      }
      String apiKeyHeader = tenants.get().apiKeyHeader().orElseThrow();
      return Answers.missingTenant("an API key in the " + apiKeyHeader + " header", true,
          apiKeyHeader.equalsIgnoreCase("Authorization"));
    }

    /** The limits of {@code tenant} (normalized), or null when it has none. */
    Limits limitsFor(String tenant) {
      Optional<Limits> override = overrides.get(tenant);
      return override != null ? override.orElse(null) : baseLimits;
    }

    /**
     * What the held body asks for; null when the filter did not read one. A body held only in part
     * gives its model and output cap as far as the held bytes have them, and its prompt by its
     * size ({@link LlmProtocol#readRequestPrefix}): no more than the cap is read, and no more than
     * the core's budget of characters tokenized.
     */
    LlmRequest read(InboundRequest inbound, HttpServletRequest request) {
      if (!inbound.json()) {
        return null;
      }
      LlmRequest read = read(request.getRequestURI(), inbound);
      if (read.endpoint() == LlmEndpoint.OTHER) {
        // The app's own path (/api/ask): the filter is mapped onto LLM-backed URLs, so read it as chat.
        read = read(CHAT_PATH, inbound);
      }
      return read;
    }

    private LlmRequest read(String path, InboundRequest inbound) {
      return inbound.whole()
          ? protocol.readRequest(path, inbound.heldBody(), defaultMaxOutput)
          : protocol.readRequestPrefix(path, inbound.heldBody(), inbound.knownLength(), defaultMaxOutput);
    }
  }
}
