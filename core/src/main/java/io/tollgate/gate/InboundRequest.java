package io.tollgate.gate;

import io.tollgate.llm.ProviderApi;
import java.util.Objects;
import java.util.Optional;

/**
 * A request an app serves, as its front end (the servlet filter) read it, for {@link
 * Gate#admitInbound}: who it names as its tenant (and as the user inside it), where that name
 * comes from, the API the app's endpoint speaks, its path, and its body, read only when the
 * limits count tokens.
 */
public final class InboundRequest {

  /**
   * The limiter scope of inbound charges: {@code Subject.of("inbound", tenant)}. Outbound calls
   * are charged under {@code tenant}, so a request that the app serves with an LLM call is counted
   * once on each side, never twice on one.
   */
  public static final String SCOPE = "inbound";
  /**
   * The limiter scope of inbound charges of a user inside its tenant ({@code tenants.user-limits}),
   * charged together with the tenant's {@link #SCOPE}.
   */
  public static final String USER_SCOPE = "inbound-user";
  /**
   * The prompt tokens charged for a body the front end does not read (not JSON, or none), on top
   * of {@code tokens.default-max-output}; the settle corrects both.
   */
  public static final long UNREAD_PROMPT_TOKENS = 128;

  private final Optional<String> tenant;
  private final Optional<String> user;
  private final TenantSource tenantSource;
  private final ProviderApi api;
  private final String path;
  private final boolean bodiless;
  private final InboundBody.Reader body;
  private final Optional<String> priority;

  private InboundRequest(Builder b) {
    this.tenant = b.tenant;
    this.user = b.user;
    this.tenantSource = b.tenantSource;
    this.api = b.api;
    this.path = b.path;
    this.bodiless = b.bodiless;
    this.body = b.body;
    this.priority = b.priority;
  }

  /** A request whose tenant, when it names one, comes from {@code tenantSource}. */
  public static Builder builder(TenantSource tenantSource) {
    return new Builder(tenantSource);
  }

  /** The tenant id as the front end found it, not yet checked; empty when it names none. */
  public Optional<String> tenant() {
    return tenant;
  }

  /**
   * The user inside the tenant as the front end found it ({@code tenants.user-header}), not yet
   * checked; empty when it names none.
   */
  public Optional<String> user() {
    return user;
  }

  public TenantSource tenantSource() {
    return tenantSource;
  }

  public ProviderApi api() {
    return api;
  }

  public String path() {
    return path;
  }

  /** A GET, a HEAD or an empty body: answered without usage, it costs no tokens. */
  public boolean bodiless() {
    return bodiless;
  }

  /** Reads the body; asked at most once, and only when the tenant's limits count tokens. */
  /** The priority class the request names ({@code priority.header}), if any. */
  public Optional<String> priority() {
    return priority;
  }

  public InboundBody.Reader body() {
    return body;
  }

  public static final class Builder {
    private final TenantSource tenantSource;
    private Optional<String> tenant = Optional.empty();
    private Optional<String> user = Optional.empty();
    private ProviderApi api = ProviderApi.OPENAI;
    private String path = "/";
    private boolean bodiless;
    private InboundBody.Reader body = InboundBody::unread;
    private Optional<String> priority = Optional.empty();

    private Builder(TenantSource tenantSource) {
      this.tenantSource = Objects.requireNonNull(tenantSource, "tenantSource");
    }

    /** The tenant id found, or empty; default empty. */
    public Builder tenant(Optional<String> tenant) {
      this.tenant = Objects.requireNonNull(tenant, "tenant");
      return this;
    }

    /** The user inside the tenant, or empty; default empty. Ignored without {@code tenants.user-header}. */
    public Builder user(Optional<String> user) {
      this.user = Objects.requireNonNull(user, "user");
      return this;
    }

    /** How bodies are read and refusals shaped; default OpenAI. */
    public Builder api(ProviderApi api) {
      this.api = Objects.requireNonNull(api, "api");
      return this;
    }

    /** The request's path: a path that names no LLM endpoint is read as a chat completion. */
    public Builder path(String path) {
      this.path = Objects.requireNonNull(path, "path");
      return this;
    }

    public Builder bodiless(boolean bodiless) {
      this.bodiless = bodiless;
      return this;
    }

    /** Default: no body read. */
    public Builder body(InboundBody.Reader body) {
      this.body = Objects.requireNonNull(body, "body");
      return this;
    }

    /** The value of {@code priority.header} on the request, if any; default empty. */
    public Builder priority(Optional<String> priority) {
      this.priority = Objects.requireNonNull(priority, "priority");
      return this;
    }

    public InboundRequest build() {
      return new InboundRequest(this);
    }
  }
}
