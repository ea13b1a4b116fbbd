package io.tollgate.spring.boot;

import io.tollgate.config.BreakerConfig;
import io.tollgate.config.Mode;
import io.tollgate.config.OnLimit;
import io.tollgate.config.RedisConfig;
import io.tollgate.config.StatusConfig;
import io.tollgate.config.LeasesConfig;
import io.tollgate.config.TelemetryConfig;
import io.tollgate.config.TenantsConfig;
import io.tollgate.config.TelemetryExport;
import io.tollgate.config.TokensConfig;
import io.tollgate.config.TollgateConfig;
import io.tollgate.limiter.Algorithm;
import io.tollgate.limiter.FailurePolicy;
import io.tollgate.llm.ProviderApi;
import io.tollgate.servlet.TollgateFilter;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

/**
 * The {@code tollgate.*} tree of CONFIG.md, as Spring binds it, plus the starter's own switches
 * ({@code enabled}, {@code filter.*}, {@code client.*}). Values are only collected here: they are
 * checked by the core when {@link TollgateConfigMapper} builds the {@link TollgateConfig}, so a
 * value means the same and fails the same way in Spring as in the agent's YAML file.
 *
 * <p>Unknown keys fail start-up, as in the core's loader: a misspelt limit must not run unlimited.
 */
@ConfigurationProperties(prefix = TollgateConfig.ROOT, ignoreUnknownFields = false)
public class TollgateProperties {

  /** Whether Tollgate runs at all: false creates none of its beans (the filter, the client hooks, the actuator parts). */
  private boolean enabled = true;

  /** enforce, shadow (decide and report, never block) or off (touch nothing). */
  private Mode mode = TollgateConfig.DEFAULT_MODE;

  /** What a limited call gets: reject (a synthetic 429 at once) or wait (up to max-wait, then reject). */
  private OnLimit onLimit = TollgateConfig.DEFAULT_ON_LIMIT;

  /** The longest a limited call waits for room when on-limit is wait. */
  private Duration maxWait = TollgateConfig.DEFAULT_MAX_WAIT;

  /** Read by the agent only (a bad configuration disables it unless strict); in Spring a bad configuration always fails start-up. */
  private boolean strict = TollgateConfig.DEFAULT_STRICT;

  /**
   * More headers that hold secrets (a gateway's key, say): never sent to another origin than the
   * call's, neither to a fallback nor across a redirect, even one the built-in allow-list names. A
   * call Tollgate reroutes carries only known-safe headers anyway (content-type, accept,
   * accept-encoding, user-agent, openai-beta, anthropic-version, anthropic-beta, traceparent,
   * tracestate) and the fallback's own key.
   */
  private List<String> credentialHeaders = new ArrayList<>();

  /** The agent's configuration file (-Dtollgate.config). Ignored by the starter, which reads these properties instead; accepted so that an app run with the agent still starts. */
  private String config;

  /** The agent's debug switch (-Dtollgate.debug). Ignored by the starter. */
  private boolean debug;

  /** The shared limiter. Absent: limits are kept in memory, per JVM. */
  private Redis redis;

  /** LLM providers by name (the name is used in metrics, spans and fallbacks). Calls to hosts no provider's base-url matches are not touched. */
  private Map<String, Provider> providers = new LinkedHashMap<>();

  /**
   * Model to USD per million tokens, over the bundled price table, for pricing spend. A name with
   * dots goes in brackets: prices[gpt-4.1].input.
   */
  private Map<String, Price> prices = new LinkedHashMap<>();

  /** Who is charged for a call and what each tenant may spend. Absent: calls are not charged to tenants and the servlet filter is not registered. */
  private Tenants tenants;

  /** The per-provider circuit breaker. */
  private Breaker breaker = new Breaker();

  /** How token costs are estimated before a call. */
  private Tokens tokens = new Tokens();

  /** Where Tollgate's spans and metrics go. */
  private Telemetry telemetry = new Telemetry();

  /** The status page: at /actuator/tollgate (exposed and secured as the actuator is) and at status.path. */
  private Status status = new Status();

  /** Priority classes, each allowed a share of every limit; not set: every call may use every limit whole. */
  private Priority priority;

  /** The inbound servlet filter (registered when tenants are configured). */
  private Filter filter = new Filter();

  /** The outbound hooks on Spring's RestClient, RestTemplate and WebClient. */
  private Client client = new Client();

  public boolean isEnabled() {
    return enabled;
  }

  public void setEnabled(boolean enabled) {
    this.enabled = enabled;
  }

  public Mode getMode() {
    return mode;
  }

  public void setMode(Mode mode) {
    this.mode = mode;
  }

  public OnLimit getOnLimit() {
    return onLimit;
  }

  public void setOnLimit(OnLimit onLimit) {
    this.onLimit = onLimit;
  }

  public Duration getMaxWait() {
    return maxWait;
  }

  public void setMaxWait(Duration maxWait) {
    this.maxWait = maxWait;
  }

  public boolean isStrict() {
    return strict;
  }

  public void setStrict(boolean strict) {
    this.strict = strict;
  }

  public Map<String, Price> getPrices() {
    return prices;
  }

  public void setPrices(Map<String, Price> prices) {
    this.prices = prices;
  }

  public List<String> getCredentialHeaders() {
    return credentialHeaders;
  }

  public void setCredentialHeaders(List<String> credentialHeaders) {
    this.credentialHeaders = credentialHeaders;
  }

  public String getConfig() {
    return config;
  }

  public void setConfig(String config) {
    this.config = config;
  }

  public boolean isDebug() {
    return debug;
  }

  public void setDebug(boolean debug) {
    this.debug = debug;
  }

  public Redis getRedis() {
    return redis;
  }

  public void setRedis(Redis redis) {
    this.redis = redis;
  }

  public Map<String, Provider> getProviders() {
    return providers;
  }

  public void setProviders(Map<String, Provider> providers) {
    this.providers = providers;
  }

  public Tenants getTenants() {
    return tenants;
  }

  public void setTenants(Tenants tenants) {
    this.tenants = tenants;
  }

  public Breaker getBreaker() {
    return breaker;
  }

  public void setBreaker(Breaker breaker) {
    this.breaker = breaker;
  }

  public Tokens getTokens() {
    return tokens;
  }

  public void setTokens(Tokens tokens) {
    this.tokens = tokens;
  }

  public Telemetry getTelemetry() {
    return telemetry;
  }

  public void setTelemetry(Telemetry telemetry) {
    this.telemetry = telemetry;
  }

  public Priority getPriority() {
    return priority;
  }

  public void setPriority(Priority priority) {
    this.priority = priority;
  }

  public Status getStatus() {
    return status;
  }

  public void setStatus(Status status) {
    this.status = status;
  }

  public Filter getFilter() {
    return filter;
  }

  public void setFilter(Filter filter) {
    this.filter = filter;
  }

  public Client getClient() {
    return client;
  }

  public void setClient(Client client) {
    this.client = client;
  }

  /** {@code tollgate.redis}. */
  public static class Redis {

    /** A standalone Redis: redis://[user:password@]host:port[/db], or rediss:// for TLS (percent-encode @ : / in the password). Either this or cluster. */
    private String url;

    /** Seed nodes of a Redis Cluster: host:port each, or redis://[user:password@]host:port (rediss:// for TLS) when the nodes need a password or TLS, every entry with the same scheme and credentials. Either this or url. */
    private List<String> cluster = new ArrayList<>();

    /** The most one Redis call may take before it counts as a failure. */
    private Duration timeout = RedisConfig.DEFAULT_TIMEOUT;

    /** While Redis cannot answer: fail-open (admit through a local limiter holding local-share of each limit) or fail-closed (deny). */
    private FailurePolicy onFailure = RedisConfig.DEFAULT_ON_FAILURE;

    /** The fraction of each limit, in (0, 1], one JVM may spend on its own while Redis is unreachable. */
    private double localShare = RedisConfig.DEFAULT_LOCAL_SHARE;

    /** Connections per JVM to Redis (or per cluster node). */
    private int poolSize = RedisConfig.DEFAULT_POOL_SIZE;

    /** How long a reservation waits for its settle before it expires with its estimate charged. */
    private Duration reservationTtl = RedisConfig.DEFAULT_RESERVATION_TTL;

    /** Over TLS (rediss://), whether the Redis certificate must name the host connected to. false accepts a certificate for any host the JVM trusts: unsafe, for testing only. */
    private boolean verifyHost = RedisConfig.DEFAULT_VERIFY_HOST;

    public String getUrl() {
      return url;
    }

    public void setUrl(String url) {
      this.url = url;
    }

    public List<String> getCluster() {
      return cluster;
    }

    public void setCluster(List<String> cluster) {
      this.cluster = cluster;
    }

    public Duration getTimeout() {
      return timeout;
    }

    public void setTimeout(Duration timeout) {
      this.timeout = timeout;
    }

    public FailurePolicy getOnFailure() {
      return onFailure;
    }

    public void setOnFailure(FailurePolicy onFailure) {
      this.onFailure = onFailure;
    }

    public double getLocalShare() {
      return localShare;
    }

    public void setLocalShare(double localShare) {
      this.localShare = localShare;
    }

    public int getPoolSize() {
      return poolSize;
    }

    public void setPoolSize(int poolSize) {
      this.poolSize = poolSize;
    }

    public Duration getReservationTtl() {
      return reservationTtl;
    }

    public void setReservationTtl(Duration reservationTtl) {
      this.reservationTtl = reservationTtl;
    }

    public boolean isVerifyHost() {
      return verifyHost;
    }

    public void setVerifyHost(boolean verifyHost) {
      this.verifyHost = verifyHost;
    }
  }

  /** {@code tollgate.providers.<name>}. */
  public static class Provider {

    /** The provider's absolute http or https URL; calls under it are this provider's. Required. */
    private String baseUrl;

    /** How requests, usage and errors are read: openai, azure-openai or anthropic. */
    private ProviderApi api = ProviderApi.OPENAI;

    /** Sent only when Tollgate itself routes a call to this provider (as a fallback); never logged. */
    private String apiKey;

    /** Lets a plain http base-url to a host other than loopback carry the api-key (refused by default). */
    private boolean allowInsecure;

    /** The provider account's limits. */
    private Limits limits = new Limits();

    /** Providers that take a call this one cannot, tried in order of health. */
    private List<String> fallbacks = new ArrayList<>();

    /** When this provider takes another's call as a fallback: the model asked of the primary to the model to ask here. */
    private Map<String, String> modelMap = new LinkedHashMap<>();

    /**
     * Limits per model (per deployment for azure-openai), checked together with the account's; "*"
     * gives every other model limits of its own. A name with dots goes in brackets: models[gpt-4.1].
     */
    private Map<String, Limits> models = new LinkedHashMap<>();

    /** Whether the provider's own rate-limit headers lower the room Tollgate holds when they report less. */
    private boolean learnLimits = true;

    public String getBaseUrl() {
      return baseUrl;
    }

    public void setBaseUrl(String baseUrl) {
      this.baseUrl = baseUrl;
    }

    public ProviderApi getApi() {
      return api;
    }

    public void setApi(ProviderApi api) {
      this.api = api;
    }

    public String getApiKey() {
      return apiKey;
    }

    public void setApiKey(String apiKey) {
      this.apiKey = apiKey;
    }

    public boolean isAllowInsecure() {
      return allowInsecure;
    }

    public void setAllowInsecure(boolean allowInsecure) {
      this.allowInsecure = allowInsecure;
    }

    public Limits getLimits() {
      return limits;
    }

    public void setLimits(Limits limits) {
      this.limits = limits;
    }

    public List<String> getFallbacks() {
      return fallbacks;
    }

    public void setFallbacks(List<String> fallbacks) {
      this.fallbacks = fallbacks;
    }

    public Map<String, String> getModelMap() {
      return modelMap;
    }

    public void setModelMap(Map<String, String> modelMap) {
      this.modelMap = modelMap;
    }

    public Map<String, Limits> getModels() {
      return models;
    }

    public void setModels(Map<String, Limits> models) {
      this.models = models;
    }

    public boolean isLearnLimits() {
      return learnLimits;
    }

    public void setLearnLimits(boolean learnLimits) {
      this.learnLimits = learnLimits;
    }
  }

  /** A {@code limits} section: every limit set applies, all charged together. Absent keys are no limit. */
  public static class Limits {

    /** Calls admitted per second. */
    private Long requestsPerSecond;

    /** Calls admitted per minute. */
    private Long requestsPerMinute;

    /** Calls admitted per hour. */
    private Long requestsPerHour;

    /** Calls admitted per day. */
    private Long requestsPerDay;

    /** LLM tokens (prompt plus output) per second. */
    private Long tokensPerSecond;

    /** LLM tokens (prompt plus output) per minute. */
    private Long tokensPerMinute;

    /** LLM tokens (prompt plus output) per hour. */
    private Long tokensPerHour;

    /** LLM tokens (prompt plus output) per day. */
    private Long tokensPerDay;

    /** Spend per calendar day (UTC), in US dollars, priced from the tokens used (see prices). */
    private BigDecimal usdPerDay;

    /** Spend per calendar month (UTC), in US dollars. */
    private BigDecimal usdPerMonth;

    /** token-bucket (continuous refill, bursts up to the capacity; the default) or sliding-window. */
    private Algorithm algorithm;

    /** What these limits decide while Redis cannot answer: fail-open or fail-closed. Not set: tollgate.redis.on-failure. */
    private FailurePolicy onFailure;

    /** Local permit leases for a hot subject (Redis only). Absent: every decision asks Redis. */
    private Leases leases;

    public Leases getLeases() {
      return leases;
    }

    public void setLeases(Leases leases) {
      this.leases = leases;
    }

    public Long getRequestsPerSecond() {
      return requestsPerSecond;
    }

    public void setRequestsPerSecond(Long requestsPerSecond) {
      this.requestsPerSecond = requestsPerSecond;
    }

    public Long getRequestsPerMinute() {
      return requestsPerMinute;
    }

    public void setRequestsPerMinute(Long requestsPerMinute) {
      this.requestsPerMinute = requestsPerMinute;
    }

    public Long getRequestsPerHour() {
      return requestsPerHour;
    }

    public void setRequestsPerHour(Long requestsPerHour) {
      this.requestsPerHour = requestsPerHour;
    }

    public Long getRequestsPerDay() {
      return requestsPerDay;
    }

    public void setRequestsPerDay(Long requestsPerDay) {
      this.requestsPerDay = requestsPerDay;
    }

    public Long getTokensPerSecond() {
      return tokensPerSecond;
    }

    public void setTokensPerSecond(Long tokensPerSecond) {
      this.tokensPerSecond = tokensPerSecond;
    }

    public Long getTokensPerMinute() {
      return tokensPerMinute;
    }

    public void setTokensPerMinute(Long tokensPerMinute) {
      this.tokensPerMinute = tokensPerMinute;
    }

    public Long getTokensPerHour() {
      return tokensPerHour;
    }

    public void setTokensPerHour(Long tokensPerHour) {
      this.tokensPerHour = tokensPerHour;
    }

    public Long getTokensPerDay() {
      return tokensPerDay;
    }

    public void setTokensPerDay(Long tokensPerDay) {
      this.tokensPerDay = tokensPerDay;
    }

    public BigDecimal getUsdPerDay() {
      return usdPerDay;
    }

    public void setUsdPerDay(BigDecimal usdPerDay) {
      this.usdPerDay = usdPerDay;
    }

    public BigDecimal getUsdPerMonth() {
      return usdPerMonth;
    }

    public void setUsdPerMonth(BigDecimal usdPerMonth) {
      this.usdPerMonth = usdPerMonth;
    }

    public Algorithm getAlgorithm() {
      return algorithm;
    }

    public void setAlgorithm(Algorithm algorithm) {
      this.algorithm = algorithm;
    }

    public FailurePolicy getOnFailure() {
      return onFailure;
    }

    public void setOnFailure(FailurePolicy onFailure) {
      this.onFailure = onFailure;
    }
  }

  /** {@code tollgate.tenants}. */
  public static class Tenants {

    /** The request header whose value is the tenant id. Either this or api-key-header. */
    private String header;

    /** The request header holding the caller's API key (such as Authorization); the tenant is a hash of the key, never the key. Either this or header. */
    private String apiKeyHeader;

    /** What every tenant may spend. */
    private Limits limits = new Limits();

    /** Tenant id to the limit keys that tenant gets instead of the base's; write ids with dots in brackets: overrides[acme.com]. */
    private Map<String, Limits> overrides = new LinkedHashMap<>();

    /** The request header whose value names a user inside the tenant (such as X-User-Id); set together with user-limits. */
    private String userHeader;

    /** What each user inside a tenant may spend, charged together with the tenant's limits, so a user never exceeds its tenant; set together with user-header. */
    private Limits userLimits = new Limits();

    /** Fold tenant ids (and the ids of overrides) and user ids to lower case before they are looked up and hashed, so ACME is acme. */
    private boolean caseInsensitive = TenantsConfig.DEFAULT_CASE_INSENSITIVE;

    /** Serve only the tenants listed under overrides; the filter refuses any other with a 403 (unknown_tenant). */
    private boolean knownOnly = TenantsConfig.DEFAULT_KNOWN_ONLY;

    /** How many tenant ids one JVM charges on their own at a time, per direction; beyond them new ids share one overflow bucket with the base limits. Tenants listed under overrides are not counted. */
    private int maxTracked = TenantsConfig.DEFAULT_MAX_TRACKED;

    /** Secret (at least 16 bytes) that keys the tenant hash in Redis keys, spans and logs (HMAC-SHA256); set it from the environment, e.g. ${TOLLGATE_TENANT_HASH_KEY}. Unset: a plain SHA-256 of the id, which anyone can recompute for a guessed id. */
    private String hashKey;

    public String getHeader() {
      return header;
    }

    public void setHeader(String header) {
      this.header = header;
    }

    public String getApiKeyHeader() {
      return apiKeyHeader;
    }

    public void setApiKeyHeader(String apiKeyHeader) {
      this.apiKeyHeader = apiKeyHeader;
    }

    public Limits getLimits() {
      return limits;
    }

    public void setLimits(Limits limits) {
      this.limits = limits;
    }

    public Map<String, Limits> getOverrides() {
      return overrides;
    }

    public void setOverrides(Map<String, Limits> overrides) {
      this.overrides = overrides;
    }

    public String getUserHeader() {
      return userHeader;
    }

    public void setUserHeader(String userHeader) {
      this.userHeader = userHeader;
    }

    public Limits getUserLimits() {
      return userLimits;
    }

    public void setUserLimits(Limits userLimits) {
      this.userLimits = userLimits;
    }

    public boolean isCaseInsensitive() {
      return caseInsensitive;
    }

    public void setCaseInsensitive(boolean caseInsensitive) {
      this.caseInsensitive = caseInsensitive;
    }

    public boolean isKnownOnly() {
      return knownOnly;
    }

    public void setKnownOnly(boolean knownOnly) {
      this.knownOnly = knownOnly;
    }

    public int getMaxTracked() {
      return maxTracked;
    }

    public void setMaxTracked(int maxTracked) {
      this.maxTracked = maxTracked;
    }

    public String getHashKey() {
      return hashKey;
    }

    public void setHashKey(String hashKey) {
      this.hashKey = hashKey;
    }
  }

  /** {@code tollgate.breaker}. */
  public static class Breaker {

    /** Consecutive failures (429, 5xx, timeout, connection error) within window that open a provider's breaker. */
    private int failures = BreakerConfig.DEFAULT_FAILURES;

    /** How recent those failures must be. */
    private Duration window = BreakerConfig.DEFAULT_WINDOW;

    /** How long an open breaker refuses calls before one probe is let through. */
    private Duration openFor = BreakerConfig.DEFAULT_OPEN_FOR;

    /** The longest open time failed probes can lead to (each doubles it); default 5m, or open-for when longer. */
    private Duration maxOpenFor;

    public int getFailures() {
      return failures;
    }

    public void setFailures(int failures) {
      this.failures = failures;
    }

    public Duration getWindow() {
      return window;
    }

    public void setWindow(Duration window) {
      this.window = window;
    }

    public Duration getOpenFor() {
      return openFor;
    }

    public void setOpenFor(Duration openFor) {
      this.openFor = openFor;
    }

    public Duration getMaxOpenFor() {
      return maxOpenFor;
    }

    public void setMaxOpenFor(Duration maxOpenFor) {
      this.maxOpenFor = maxOpenFor;
    }
  }

  /** {@code tollgate...limits.leases}: a JVM takes a batch of permits in one script call and decides from it locally. */
  /** {@code tollgate.prices.<model>}: USD per million tokens. */
  public static class Price {

    /** Input tokens not read from the prompt cache. Required. */
    private BigDecimal input;

    /** Input tokens read from the prompt cache; default the input price. */
    private BigDecimal cachedInput;

    /** Output tokens, reasoning included. Required. */
    private BigDecimal output;

    /** Input tokens written to the prompt cache (Anthropic); default the input price. */
    private BigDecimal cacheWrite;

    public BigDecimal getInput() {
      return input;
    }

    public void setInput(BigDecimal input) {
      this.input = input;
    }

    public BigDecimal getCachedInput() {
      return cachedInput;
    }

    public void setCachedInput(BigDecimal cachedInput) {
      this.cachedInput = cachedInput;
    }

    public BigDecimal getOutput() {
      return output;
    }

    public void setOutput(BigDecimal output) {
      this.output = output;
    }

    public BigDecimal getCacheWrite() {
      return cacheWrite;
    }

    public void setCacheWrite(BigDecimal cacheWrite) {
      this.cacheWrite = cacheWrite;
    }
  }

  public static class Leases {

    /** auto (sized to the demand seen over one ttl) or a whole number of calls per lease. */
    private String size = "auto";

    /** How long a lease lives before what it has not spent goes back; 1ms to 1m. */
    private Duration ttl = LeasesConfig.DEFAULT_TTL;

    public String getSize() {
      return size;
    }

    public void setSize(String size) {
      this.size = size;
    }

    public Duration getTtl() {
      return ttl;
    }

    public void setTtl(Duration ttl) {
      this.ttl = ttl;
    }
  }

  /** {@code tollgate.telemetry}. */
  public static class Telemetry {

    /** Read by the agent only (none or otlp: the agent starts an SDK of its own). The starter records through the app's OpenTelemetry bean, else GlobalOpenTelemetry. */
    private TelemetryExport export = TelemetryConfig.DEFAULT_EXPORT;

    /** Tollgate's metrics as Micrometer meters. */
    private Micrometer micrometer = new Micrometer();

    public TelemetryExport getExport() {
      return export;
    }

    public void setExport(TelemetryExport export) {
      this.export = export;
    }

    public Micrometer getMicrometer() {
      return micrometer;
    }

    public void setMicrometer(Micrometer micrometer) {
      this.micrometer = micrometer;
    }
  }

  /** {@code tollgate.telemetry.micrometer}. */
  public static class Micrometer {

    /** Whether Tollgate's metrics go to Boot's MeterRegistry, when the app has one, instead of to OpenTelemetry (each measurement is recorded once; spans stay OpenTelemetry's). False records them through the app's OpenTelemetry, as without a registry. */
    private boolean enabled = true;

    public boolean isEnabled() {
      return enabled;
    }

    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }
  }

  /** {@code tollgate.tokens}. */
  public static class Tokens {

    /** Output tokens reserved for a request that names no max_tokens, until its usage settles the difference. */
    private int defaultMaxOutput = TokensConfig.DEFAULT_DEFAULT_MAX_OUTPUT;

    /** The most bytes of one body Tollgate holds in memory, 0 to 64MB. A request body up to it is read for its estimate and may be sent again to a fallback; of a larger one only this much is held (read for its model and max_tokens), the rest streams through once, its prompt estimated at one token per 4 bytes. A failed response larger than it is handed to the app instead of being held for a fallback. */
    private DataSize maxBufferedBody = DataSize.ofMegabytes(1); // TokensConfig.DEFAULT_MAX_BUFFERED_BODY

    public int getDefaultMaxOutput() {
      return defaultMaxOutput;
    }

    public void setDefaultMaxOutput(int defaultMaxOutput) {
      this.defaultMaxOutput = defaultMaxOutput;
    }

    public DataSize getMaxBufferedBody() {
      return maxBufferedBody;
    }

    public void setMaxBufferedBody(DataSize maxBufferedBody) {
      this.maxBufferedBody = maxBufferedBody;
    }
  }

  /**
   * {@code tollgate.status}: where the status page is served besides /actuator/tollgate. Checked
   * as a whole, so that a file the agent and the starter share means the same to both.
   */
  public static class Status {

    /** Read by the agent only: the port of its own status server, 1 to 65535 (0: any free port). Not set: the agent serves no page. */
    private Integer port;

    /** Read by the agent only: the address its status server listens on. Beyond loopback it needs token. */
    private String bind = StatusConfig.DEFAULT_BIND;

    /** The bearer token the status data needs where Tollgate guards it itself (at path, and on the agent's port): at least 16 printable ASCII characters, best from a secret such as ${TOLLGATE_STATUS_TOKEN}. Not set: the data is served to loopback only. /actuator/tollgate does not use it: the actuator's own security applies there. */
    private String token;

    /** Where the servlet filter serves the status page and its data (?view=status), such as /tollgate/status. Not set: the filter serves none. */
    private String path;

    public Integer getPort() {
      return port;
    }

    public void setPort(Integer port) {
      this.port = port;
    }

    public String getBind() {
      return bind;
    }

    public void setBind(String bind) {
      this.bind = bind;
    }

    public String getToken() {
      return token;
    }

    public void setToken(String token) {
      this.token = token;
    }

    public String getPath() {
      return path;
    }

    public void setPath(String path) {
      this.path = path;
    }
  }

  /**
   * {@code tollgate.priority}: priority classes. Under saturation the lower classes are refused
   * first: each may use only its share of every limit.
   */
  public static class Priority {

    /** The header naming a request's class (the inbound request's, or the outbound call's own), such as X-Priority. */
    private String header;

    /** The class of a request that names none, or names no class; default "default". */
    private String defaultClass;

    /** Class name to the share of every limit it may use (more than 0, at most 1). Not set: critical 1.0, default 0.9, batch 0.7. */
    private Map<String, Double> classes = new LinkedHashMap<>();

    /** Tenant id to its class, for its requests that name none. */
    private Map<String, String> tenants = new LinkedHashMap<>();

    public String getHeader() {
      return header;
    }

    public void setHeader(String header) {
      this.header = header;
    }

    public String getDefault() {
      return defaultClass;
    }

    public void setDefault(String defaultClass) {
      this.defaultClass = defaultClass;
    }

    public Map<String, Double> getClasses() {
      return classes;
    }

    public void setClasses(Map<String, Double> classes) {
      this.classes = classes;
    }

    public Map<String, String> getTenants() {
      return tenants;
    }

    public void setTenants(Map<String, String> tenants) {
      this.tenants = tenants;
    }
  }

  /** {@code tollgate.filter}: the inbound per-tenant servlet filter. */
  public static class Filter {

    /** Whether the filter is registered (it also needs tollgate.tenants). */
    private boolean enabled = true;

    /** The URL patterns the filter is mapped to, exactly as given, such as /v1/* (every request they match is charged, and refused without a tenant). Not set: every request of the app except the actuator's (everything under management.endpoints.web.base-path, /actuator by default, when the actuator shares the server's port), so that probes need no tenant. Error dispatches are never filtered. */
    private List<String> urlPatterns = new ArrayList<>();

    /** The filter's place in the chain; after Spring Security's (-100) by default, so that tenant-from principal sees the user. */
    private int order = 0;

    /** A request without a tenant: reject (400 or 401), or default:<tenant id> to charge it to that tenant. */
    private String missingTenant = "reject";

    /** Where the tenant comes from: config (the tenants header or api-key-header) or principal (the authenticated user's name). */
    private String tenantFrom = "config";

    /** The most bytes of a JSON request body the filter holds for its estimate, when it should differ from tollgate.tokens.max-buffered-body; not set: that. A larger body is held only that far and estimated by its size. */
    private DataSize maxBufferedBody;

    /** The API the app's own endpoints speak: how bodies are estimated and refusals shaped. */
    private ProviderApi api = ProviderApi.OPENAI;

    public boolean isEnabled() {
      return enabled;
    }

    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }

    public List<String> getUrlPatterns() {
      return urlPatterns;
    }

    public void setUrlPatterns(List<String> urlPatterns) {
      this.urlPatterns = urlPatterns;
    }

    public int getOrder() {
      return order;
    }

    public void setOrder(int order) {
      this.order = order;
    }

    public String getMissingTenant() {
      return missingTenant;
    }

    public void setMissingTenant(String missingTenant) {
      this.missingTenant = missingTenant;
    }

    public String getTenantFrom() {
      return tenantFrom;
    }

    public void setTenantFrom(String tenantFrom) {
      this.tenantFrom = tenantFrom;
    }

    public DataSize getMaxBufferedBody() {
      return maxBufferedBody;
    }

    public void setMaxBufferedBody(DataSize maxBufferedBody) {
      this.maxBufferedBody = maxBufferedBody;
    }

    public ProviderApi getApi() {
      return api;
    }

    public void setApi(ProviderApi api) {
      this.api = api;
    }
  }

  /** {@code tollgate.client}: Spring's own HTTP clients. */
  public static class Client {

    /** Whether calls to providers made with Boot's RestClient.Builder, RestTemplateBuilder and WebClient.Builder go through Tollgate. Skipped anyway while the Tollgate agent runs in this JVM, so that no call is limited twice. */
    private boolean enabled = true;

    public boolean isEnabled() {
      return enabled;
    }

    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }
  }
}
