package io.tollgate.gate;

import io.tollgate.config.Limiters;
import io.tollgate.config.Mode;
import io.tollgate.config.ModeSetting;
import io.tollgate.config.ProviderConfig;
import io.tollgate.config.RedisConfig;
import io.tollgate.config.TollgateConfig;
import io.tollgate.gate.internal.AdmissionFailure;
import io.tollgate.gate.internal.Call;
import io.tollgate.gate.internal.FleetBeacon;
import io.tollgate.overrides.OverrideStore;
import io.tollgate.overrides.Overrides;
import io.tollgate.gate.internal.GateParts;
import io.tollgate.gate.internal.InboundGate;
import io.tollgate.gate.internal.ResponseView;
import io.tollgate.gate.internal.Step;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.context.Scope;
import io.tollgate.limiter.Charge;
import io.tollgate.limiter.LimiterHealth;
import io.tollgate.limiter.RateLimiter;
import io.tollgate.llm.Headers;
import io.tollgate.llm.ProviderApi;
import io.tollgate.llm.TokenCounter;
import io.tollgate.redis.RedisConnection;
import io.tollgate.router.CrossOriginHeaders;
import io.tollgate.router.HealthBoard;
import io.tollgate.router.HealthConfig;
import io.tollgate.router.OutboundRequest;
import io.tollgate.router.ProviderBreakers;
import io.tollgate.telemetry.Telemetry;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;

/**
 * The one entry point every front end calls. For an outbound call to a configured provider it
 * reserves on every applicable limit, picks the provider (the one addressed, else its healthiest
 * fallback), has the front end send the planned request, and settles from the response body as the
 * app reads it. Calls to any other host pass through untouched. For an inbound request an app
 * serves ({@link #admitInbound}) it checks the tenant, reserves on the tenant's inbound limits,
 * answers a refusal, and settles from the response the app writes.
 *
 * <pre>{@code
 * try (Gate gate = Gate.create(TollgateConfig.load(configLocation))) {
 *   // ... one gate for every call of the JVM; for each call:
 * }
 * // ...
 * OutboundRequest request = OutboundRequest.of("POST", url,
 *     Headers.of("content-type", "application/json"), json.getBytes());
 * Transport<HttpResponse<InputStream>> transport = new JdkTransport(HttpClient.newHttpClient());
 * CallResult<HttpResponse<InputStream>> result = gate.call(request, true, transport);
 * }</pre>
 *
 * <p>The whole example, with its {@link Transport} over the JDK's {@code HttpClient}, is
 * {@code GateExample} in samples/api-examples.
 */
public final class Gate implements AutoCloseable {

  private final GateParts parts;
  private final AdmissionFailure admissionFailure;
  private final ProviderMatcher matcher;
  /** Null without {@code tollgate.tenants}: inbound requests are charged to tenants. */
  private final InboundGate inbound;
  private final List<AutoCloseable> owned;
  private final Fleet fleet;

  private Gate(GateParts parts, Fleet fleet, List<AutoCloseable> owned) {
    this.fleet = fleet;
    this.admissionFailure = new AdmissionFailure(parts);
    this.parts = parts;
    this.inbound = parts.config().tenants().map(tenants -> new InboundGate(parts, tenants)).orElse(null);
    this.matcher = ProviderMatcher.of(parts.config().providers().values());
    this.owned = owned;
  }

  /** A gate as {@code config} describes it: its own limiter, breakers and Redis client. */
  public static Gate create(TollgateConfig config) {
    return builder(config).build();
  }

  public static Builder builder(TollgateConfig config) {
    return new Builder(config);
  }

  /** The configuration this gate runs. */
  public TollgateConfig config() {
    return parts.config();
  }

  /** The provider a call to {@code url} is for, or empty when Tollgate leaves it alone. */
  public Optional<ProviderConfig> providerFor(URI url) {
    if (parts.mode() == Mode.OFF) {
      return Optional.empty();
    }
    return matcher.match(url);
  }

  /**
   * Which headers of a call this gate routes may go to another origin than the one it was sent to:
   * front ends apply it to a redirect that leaves that origin, so that no credential follows it.
   */
  public CrossOriginHeaders crossOriginHeaders() {
    return parts.crossOrigin();
  }

  /** True when some provider lives on {@code host}: the cheapest first filter for the agent. */
  public boolean watchesHost(String host) {
    return parts.mode() != Mode.OFF && matcher.knowsHost(host);
  }

  /**
   * Runs one call on the caller's thread; waits (on-limit: wait) are bounded by max-wait.
   *
   * @param replayable whether the body may be sent again, to a fallback; false for a body that
   *     was streamed and not kept
   * @throws IOException the transport's own exception when no provider answered at all
   */
  public <R> CallResult<R> call(OutboundRequest request, boolean replayable, Transport<R> transport)
      throws IOException {
    return callOnThisThread(request, replayable, transport, true);
  }

  /**
   * As {@link #call}, for a thread that must never be put to sleep (an HTTP client's dispatcher
   * thread, which other calls queue behind, when the client's API cannot hand the call back
   * later): a limited call is answered at once whatever {@code on-limit} says, and a fallback is
   * sent without the switch-over jitter.
   */
  public <R> CallResult<R> callWithoutPausing(OutboundRequest request, boolean replayable,
      Transport<R> transport) throws IOException {
    return callOnThisThread(request, replayable, transport, false);
  }

  private <R> CallResult<R> callOnThisThread(OutboundRequest request, boolean replayable,
      Transport<R> transport, boolean mayPause) throws IOException {
    Optional<ProviderConfig> provider = providerFor(request.uri());
    if (provider.isEmpty()) {
      return new CallResult.Forwarded<>("", transport.send(request), UsageObserver.none(), 1);
    }
    Call<R> call = null;
    Step<R> step;
    try {
      call = new Call<>(parts, request, provider.get(), Tenants.current(), Tenants.currentUser(),
          replayable, mayPause,
          view(transport::status, transport::headers, transport::discard, transport::hold));
      step = call.start();
    } catch (RuntimeException e) {
      if (call != null) {
        call.abandon();
      }
      return admissionFailure.refuseOrRethrow(provider.get(), e);
    }
    try {
      while (true) {
        if (step instanceof Step.Done<R> done) {
          return done.result();
        } else if (step instanceof Step.Fail<R> fail) {
          throw fail.error();
        } else if (step instanceof Step.Wait<R> wait) {
          sleep(wait.duration());
          step = call.next();
        } else if (step instanceof Step.Send<R> send) {
          sleep(send.delay());
          R response;
          try (Scope attempt = call.attemptScope()) {
            response = transport.send(send.request());
          } catch (IOException e) {
            step = call.onError(e);
            continue;
          }
          step = call.onResponse(response);
        }
      }
    } catch (RuntimeException | InterruptedIOException e) {
      call.abandon();
      throw e;
    }
  }

  /**
   * As {@link #call}, for asynchronous clients: no thread is blocked while the call waits or
   * jitters; the tenant (and user) bound now is the one charged. The estimate and the first reserve run on
   * the calling thread, each later step on the thread that completes the transport's future; a
   * client whose futures complete on its I/O threads calls
   * {@link #callAsync(OutboundRequest, boolean, AsyncTransport, Executor)} instead.
   */
  public <R> CompletableFuture<CallResult<R>> callAsync(OutboundRequest request, boolean replayable,
      AsyncTransport<R> transport) {
    Optional<ProviderConfig> provider = providerFor(request.uri());
    if (provider.isEmpty()) {
      return unmatched(request, transport);
    }
    AsyncCall<R> call = new AsyncCall<>(transport, null,
        failure -> admissionFailure.refuseOrRethrow(provider.get(), failure));
    call.start(() -> newCall(request, provider.get(), Tenants.current(), Tenants.currentUser(),
        replayable, transport));
    return call.result;
  }

  /**
   * As {@link #callAsync(OutboundRequest, boolean, AsyncTransport)}, with every step that may
   * block run on {@code steps}: the estimate (the prompt's tokens counted), each reserve and
   * release (a Redis round trip), and the decision on each attempt's response, which may reserve
   * on a fallback. The calling thread and the threads that complete the transport's futures (an
   * HTTP client's I/O threads, an event loop) only hand work over, so neither ever waits for
   * Redis; waits and the switch-over jitter are scheduled onto {@code steps}. The tenant (and
   * user) bound on the calling thread now is the one charged. The future completes on a thread of
   * {@code steps}; a call to no provider is sent at once, from the calling thread.
   *
   * @param steps an executor whose threads may block for a limiter's round trip (bounded by its
   *     timeout), such as Reactor's {@code Schedulers.boundedElastic()}
   * @throws RejectedExecutionException when {@code steps} refuses the first step: nothing was
   *     reserved or sent
   */
  public <R> CompletableFuture<CallResult<R>> callAsync(OutboundRequest request, boolean replayable,
      AsyncTransport<R> transport, Executor steps) {
    Objects.requireNonNull(steps, "steps");
    Optional<ProviderConfig> provider = providerFor(request.uri());
    if (provider.isEmpty()) {
      return unmatched(request, transport);
    }
    Optional<String> tenant = Tenants.current();
    Optional<String> user = Tenants.currentUser();
    AsyncCall<R> call = new AsyncCall<>(transport, steps,
        failure -> admissionFailure.refuseOrRethrow(provider.get(), failure));
    steps.execute(() -> call.start(
        () -> newCall(request, provider.get(), tenant, user, replayable, transport)));
    return call.result;
  }

  /**
   * Admits a request the app serves (the servlet filter's): its tenant must be named, keep {@link
   * io.tollgate.config.TenantIdRule} and, under {@code tenants.known-only}, be listed, else it is
   * refused (400, 401 or 403); it is charged one request and its estimated tokens on the tenant's
   * limits under {@link InboundRequest#SCOPE} and refused with the API's own 429 when they have no
   * room. Shadow mode decides, records and logs the same, and refuses nothing; mode off admits
   * every request unbound. Spans ({@code tollgate.inbound}) and metrics (direction {@code inbound})
   * are recorded here; the front end answers, serves and settles as {@link Admission} says.
   *
   * <p>The body is read ({@link InboundRequest#body()}) only when the tenant's limits count tokens.
   * While Redis cannot answer, the limiter's {@code redis.on-failure} decides (a degraded
   * decision); an exception of Tollgate's own while admitting is thrown to the front end, which
   * has no call to send in its place.
   *
   * @throws IOException what reading the body threw (the client failed while sending it)
   * @throws IllegalStateException when the configuration has no {@code tenants} section
   */
  public Admission admitInbound(InboundRequest request) throws IOException {
    Objects.requireNonNull(request, "request");
    if (parts.mode() == Mode.OFF) {
      return InboundGate.passThrough();
    }
    if (inbound == null) {
      throw new IllegalStateException(TollgateConfig.ROOT + ".tenants is required to admit inbound"
          + " requests: it says who each request is charged to and what it may spend");
    }
    return inbound.admit(request);
  }

  /** Inbound tenant ids charged on their own now ({@code tenants.max-tracked}); 0 without tenants. */
  public int trackedInboundTenants() {
    return inbound == null ? 0 : inbound.tracked();
  }

  private static <R> CompletableFuture<CallResult<R>> unmatched(OutboundRequest request,
      AsyncTransport<R> transport) {
    return transport.send(request).thenApply(
        response -> new CallResult.Forwarded<>("", response, UsageObserver.none(), 1));
  }

  private <R> Call<R> newCall(OutboundRequest request, ProviderConfig provider,
      Optional<String> tenant, Optional<String> user, boolean replayable, AsyncTransport<R> transport) {
    // waits and the jitter of an async call are scheduled, never slept: it may always pause
    return new Call<>(parts, request, provider, tenant, user, replayable, true,
        view(transport::status, transport::headers, transport::discard, transport::hold));
  }

  /**
   * One asynchronous call, driven step by step: a step of the state machine, the transport's
   * future, the next step. With {@code steps}, every step runs there; without, on the thread at
   * hand (the caller's first, then the one completing each future), waits on the common pool.
   */
  private static final class AsyncCall<R> {
    private final AsyncTransport<R> transport;
    private final Executor steps;
    private final Function<RuntimeException, CallResult<R>> admissionFailed;
    final CompletableFuture<CallResult<R>> result = new CompletableFuture<>();
    private Call<R> call;

    AsyncCall(AsyncTransport<R> transport, Executor steps,
        Function<RuntimeException, CallResult<R>> admissionFailed) {
      this.transport = transport;
      this.steps = steps;
      this.admissionFailed = admissionFailed;
    }

    void start(Supplier<Call<R>> made) {
      Step<R> first;
      try {
        call = made.get();
        first = call.start();
      } catch (RuntimeException e) {
        if (call != null) {
          call.abandon();
        }
        admissionFailed(e);
        return;
      }
      resume(() -> first);
    }

    /** A refusal under fail-closed; otherwise the failure, for the front end to send the call. */
    private void admissionFailed(RuntimeException failure) {
      try {
        result.complete(admissionFailed.apply(failure));
      } catch (RuntimeException rethrown) {
        result.completeExceptionally(rethrown);
      }
    }

    private void drive(Step<R> step) {
      if (step instanceof Step.Done<R> done) {
        result.complete(done.result());
      } else if (step instanceof Step.Fail<R> fail) {
        result.completeExceptionally(fail.error());
      } else if (step instanceof Step.Wait<R> wait) {
        later(wait.duration(), () -> resume(call::next));
      } else if (step instanceof Step.Send<R> send) {
        later(send.delay(), () -> send(send));
      }
    }

    private void send(Step.Send<R> send) {
      CompletableFuture<R> sent;
      try (Scope attempt = call.attemptScope()) {
        sent = transport.send(send.request());
      } catch (RuntimeException e) {
        call.abandon();
        result.completeExceptionally(e);
        return;
      }
      BiConsumer<R, Throwable> outcome = (response, error) -> resume(() -> {
        if (error == null) {
          return call.onResponse(response);
        }
        Throwable cause = error instanceof CompletionException && error.getCause() != null
            ? error.getCause() : error;
        if (cause instanceof IOException io) {
          return call.onError(io);
        }
        throw new CompletionException(cause);
      });
      if (steps == null) {
        sent.whenComplete(outcome);
      } else {
        sent.whenCompleteAsync(outcome, refusable());
      }
    }

    private void resume(Supplier<Step<R>> nextStep) {
      try {
        drive(nextStep.get());
      } catch (RuntimeException e) {
        call.abandon();
        result.completeExceptionally(e instanceof CompletionException && e.getCause() != null
            ? e.getCause() : e);
      }
    }

    /** Runs {@code task} after {@code delay}: on the steps, else here or on the common pool. */
    private void later(Duration delay, Runnable task) {
      boolean now = delay.isZero() || delay.isNegative();
      if (now) {
        task.run(); // on the steps already, when there are steps
      } else if (steps == null) {
        CompletableFuture.delayedExecutor(delay.toNanos(), TimeUnit.NANOSECONDS).execute(task);
      } else {
        CompletableFuture.delayedExecutor(delay.toNanos(), TimeUnit.NANOSECONDS, refusable())
            .execute(task);
      }
    }

    /**
     * The steps, but a task they refuse ends the call (its future fails with the refusal) instead
     * of being dropped, which would leave the call's future pending for ever. What the call holds
     * is then given back on the refusing thread: only when the executor is shut down or saturated.
     */
    private Executor refusable() {
      return task -> {
        try {
          steps.execute(task);
        } catch (RejectedExecutionException e) {
          call.abandon();
          result.completeExceptionally(e);
        }
      };
    }
  }

  private static void sleep(Duration duration) throws InterruptedIOException {
    if (duration.isZero() || duration.isNegative()) {
      return;
    }
    try {
      Thread.sleep(duration.toMillis(), (int) (duration.toNanos() % 1_000_000));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      InterruptedIOException interrupted = new InterruptedIOException("interrupted while waiting");
      interrupted.initCause(e);
      throw interrupted;
    }
  }

  private static <R> ResponseView<R> view(ToIntFunction<R> status,
      Function<R, Headers> headers, Consumer<R> discard, Predicate<R> hold) {
    return new ResponseView<>() {
      @Override
      public int status(R response) {
        return status.applyAsInt(response);
      }

      @Override
      public Headers headers(R response) {
        return headers.apply(response);
      }

      @Override
      public void discard(R response) {
        discard.accept(response);
      }

      @Override
      public boolean hold(R response) {
        return hold.test(response);
      }
    };
  }

  /** The limiter this gate charges (for the actuator and tests). */
  public RateLimiter limiter() {
    return parts.limiter();
  }

  /**
   * Waits until the settles of the calls that have ended so far are applied (a Redis limiter
   * applies them on a thread of its own, shortly after each body ends): for tests and tools that
   * read the limiter's state right after a call.
   *
   * @return false when {@code timeout} passed first
   */
  public boolean awaitSettled(Duration timeout) {
    return parts.limiter().awaitSettled(timeout);
  }

  /** The breakers of this gate's providers. */
  public ProviderBreakers breakers() {
    return parts.breakers();
  }

  /** What this gate has seen lately: for the status page. */
  public Activity activity() {
    return parts.activity();
  }

  /**
   * What a call to {@code provider} that sends {@code model} is charged on the provider's account
   * (its limits and the model's); empty when such a call is not charged there. For the status page.
   */
  public Optional<Charge> accountCharge(String provider, Optional<String> model) {
    return parts.accountCharge(provider, model);
  }

  /**
   * Limits changed at runtime over the configuration's: set, removed and listed here (the admin
   * command, the actuator and the status page's API do), in force on every gate sharing this one's
   * Redis within {@link Overrides#POLL}; without Redis, on this gate alone (docs/operations.md,
   * "Live overrides").
   */
  public Overrides overrides() {
    return parts.overrides();
  }

  /** The mode in force: one set live ({@link #overrides()}), else the configuration's. */
  public ModeSetting mode() {
    return parts.modeSetting();
  }

  /** The instances sharing this gate's Redis (this one alone without Redis): for the status page. */
  public Fleet fleet() {
    return fleet;
  }

  /** The health of this gate's providers. */
  public HealthBoard health() {
    return parts.health();
  }

  /**
   * Closes what this gate made: its limiter first applies the settles it still holds (for at most
   * 5 × {@code tollgate.redis.timeout}), then the Redis connection closes. A limiter given to the
   * builder does the same when its owner closes it.
   */
  @Override
  public void close() {
    for (AutoCloseable closeable : owned) {
      try {
        closeable.close();
      } catch (Exception e) {
        System.getLogger(Gate.class.getName())
            .log(System.Logger.Level.DEBUG, "closing " + closeable + " failed", e);
      }
    }
  }

  /** Builds a {@link Gate}; parts not given are made from the configuration and closed with it. */
  public static final class Builder {
    private final TollgateConfig config;
    private RateLimiter limiter;
    private ProviderBreakers breakers;
    private Clock clock = Clock.systemUTC();
    private Telemetry telemetry = Telemetry.global();
    private String frontEnd = "library";
    private RedisConnection redis;

    private Builder(TollgateConfig config) {
      this.config = Objects.requireNonNull(config, "config");
    }

    /** Use this limiter (not closed by the gate) instead of the one the configuration names. */
    public Builder limiter(RateLimiter limiter) {
      this.limiter = Objects.requireNonNull(limiter, "limiter");
      return this;
    }

    /**
     * Use this Redis (not closed by the gate) for what the gate makes itself: the limiter and
     * breakers when none are given, the fleet's heartbeats and the live overrides. Without it, a
     * configuration that names a Redis gets a connection of the gate's own.
     */
    public Builder redis(RedisConnection redis) {
      this.redis = Objects.requireNonNull(redis, "redis");
      return this;
    }

    /** Use these breakers (not closed by the gate). */
    public Builder breakers(ProviderBreakers breakers) {
      this.breakers = Objects.requireNonNull(breakers, "breakers");
      return this;
    }

    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * Where spans and metrics go; {@link Telemetry#global()} (the app's or the OpenTelemetry
     * agent's {@code GlobalOpenTelemetry}, once set) by default.
     */
    public Builder telemetry(Telemetry telemetry) {
      this.telemetry = Objects.requireNonNull(telemetry, "telemetry");
      return this;
    }

    /** Spans and metrics to {@code openTelemetry} (tests pass an SDK with in-memory exporters). */
    public Builder openTelemetry(OpenTelemetry openTelemetry) {
      return telemetry(Telemetry.of(openTelemetry));
    }

    /**
     * What runs this gate, as the fleet's heartbeats show it: {@code agent}, {@code starter},
     * {@code filter}; {@code library} by default.
     */
    public Builder frontEnd(String frontEnd) {
      this.frontEnd = Objects.requireNonNull(frontEnd, "frontEnd");
      return this;
    }

    public Gate build() {
      List<AutoCloseable> owned = new ArrayList<>();
      // the connection given, else one of the gate's own when the configuration names a Redis
      Optional<RedisConnection> redis = Optional.ofNullable(this.redis);
      if (redis.isEmpty()) {
        redis = config.redis().map(RedisConfig::newConnection);
        redis.ifPresent(owned::add);
        redis.ifPresent(RedisConnection::connectInBackground);
      }
      RateLimiter usedLimiter = limiter;
      if (usedLimiter == null) {
        usedLimiter = redis.isPresent()
            ? Limiters.create(config.redis(), redis.get()) : Limiters.create(Optional.empty());
        owned.add(0, usedLimiter);
      }
      ProviderBreakers usedBreakers = breakers;
      if (usedBreakers == null) {
        usedBreakers = ProviderBreakers.create(config.breaker(), redis, clock);
        owned.add(0, usedBreakers);
      }
      // the encodings the providers use start loading now, on a thread of their own: the first
      // calls are estimated until they are loaded, and never wait for them
      TokenCounter.startLoading(encodingsUsed(config));
      FirstCallRehearsal.start(apisUsed(config), config.tokens().defaultMaxOutput());
      UnusableFallbacks.warnings(config).forEach(warning ->
          System.getLogger(Gate.class.getName()).log(System.Logger.Level.WARNING, warning));
      HealthBoard health = HealthBoard.of(List.copyOf(config.providers().keySet()),
          HealthConfig.ofDefaults(), clock);
      owned.add(telemetry.watch(usedBreakers, config.providers().keySet()));
      if (usedLimiter instanceof LimiterHealth limiterHealth) {
        owned.add(telemetry.watch(limiterHealth));
      }
      BooleanSupplier degraded = usedLimiter instanceof LimiterHealth limiterHealth
          ? limiterHealth::isDegraded : () -> false;
      FleetBeacon fleet = new FleetBeacon(redis.orElse(null), frontEnd, TollgateVersion.current(),
          degraded, clock).start();
      owned.add(0, fleet);
      Overrides overrides = new Overrides(redis.<OverrideStore>map(OverrideStore::redis)
          .orElseGet(() -> OverrideStore.inMemory(clock)), config, redis.isPresent()).start();
      owned.add(0, overrides);
      GateParts parts = new GateParts(config, usedLimiter, usedBreakers, health, clock, telemetry,
          overrides);
      // first to close: no collection reads a limiter the gate has closed
      owned.add(0, telemetry.watchBudgets(SpendBudgets.of(config, usedLimiter, parts::accountCharge)));
      return new Gate(parts, fleet, owned);
    }

    private static Set<ProviderApi> apisUsed(TollgateConfig config) {
      Set<ProviderApi> apis = EnumSet.noneOf(ProviderApi.class);
      config.providers().values().forEach(provider -> apis.add(provider.api()));
      return apis;
    }

    private static Set<TokenCounter> encodingsUsed(TollgateConfig config) {
      Set<TokenCounter> counters = new LinkedHashSet<>();
      for (ProviderConfig provider : config.providers().values()) {
        Set<String> models = new LinkedHashSet<>(provider.modelMap().keySet());
        models.addAll(provider.modelMap().values());
        counters.addAll(TokenCounter.forProvider(provider.api(), models));
      }
      return counters;
    }
  }
}
