package io.tollgate.testkit.llm;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;
import org.eclipse.jetty.http2.server.HTTP2CServerConnectionFactory;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.util.thread.ScheduledExecutorScheduler;

/**
 * A fake LLM provider on real HTTP: OpenAI, Azure OpenAI and Anthropic endpoints with the real
 * JSON and SSE shapes, scripted faults, and a record of every request. Several instances (a
 * primary and a backup provider) run side by side, each on its own free port of 127.0.0.1.
 *
 * <h2>Endpoints</h2>
 * <ul>
 *   <li>{@code POST /v1/chat/completions} — OpenAI chat, JSON or SSE ({@code "stream": true};
 *       a usage chunk only with {@code stream_options.include_usage}).</li>
 *   <li>{@code POST /v1/responses} — OpenAI Responses, JSON or typed SSE events.</li>
 *   <li>{@code POST /openai/deployments/{deployment}/chat/completions?api-version=...} — Azure
 *       OpenAI; requires {@code api-key} (401) and {@code api-version} (400); {@code model} in the
 *       reply is the deployment.</li>
 *   <li>{@code POST /v1/messages} — Anthropic; requires {@code x-api-key} (401),
 *       {@code anthropic-version} (400) and {@code model}, {@code max_tokens}, {@code messages}.</li>
 *   <li>{@code GET /v1/models} — a one-model list, no auth, never faulted.</li>
 *   <li>Anything else: 404 (405 for a known path with another method than POST), OpenAI-shaped JSON.</li>
 * </ul>
 * OpenAI endpoints check {@code Authorization: Bearer} only after {@link #requireApiKey}; Azure's
 * {@code api-key} and Anthropic's {@code x-api-key} must then also equal that key.
 *
 * <h2>Usage numbers</h2>
 * Prompt tokens are {@code max(1, ceil(c / 4))}, {@code c} being the code points of all string
 * values of fields named {@code content}, {@code text}, {@code system}, {@code instructions} or
 * {@code input} anywhere in the request body, unless fixed by {@link #usage}. Completion tokens are
 * {@value #DEFAULT_COMPLETION_TOKENS} (or as set by {@link #usage}), lowered to the request's
 * {@code max_completion_tokens} / {@code max_tokens} / {@code max_output_tokens} when smaller —
 * the reply then finishes with {@code length} / {@code max_tokens} / {@code incomplete}. None of
 * the prompt is reported as cached unless {@link #cachedTokens} says so. The
 * default reply text has one word per completion token; a text set by {@link #replyText} is sent
 * whole whatever the usage says. Streams carry one word (with its trailing space) per content event.
 *
 * <h2>Faults and recording</h2>
 * {@link #script()} decides what each LLM call does instead of succeeding (see {@link Fault});
 * calls rejected for a key or a missing parameter, and requests outside the APIs, draw no fault.
 * Every request, whatever its fate, is recorded in arrival order: {@link #requests()},
 * {@link #takeRequest}, {@link #awaitRequests}. Call {@link #reset()} between tests.
 *
 * <h2>HTTP versions</h2>
 * One port serves HTTP/1.1 and cleartext HTTP/2, both by prior knowledge (OkHttp's
 * {@code H2_PRIOR_KNOWLEDGE}) and by {@code Upgrade: h2c}. Jetty upgrades only requests without a
 * body, so the JDK {@code HttpClient} (which can only upgrade) speaks HTTP/2 to this server once
 * a bodiless request, e.g. {@code GET /v1/models}, has opened an HTTP/2 connection; its POSTs
 * then share that connection.
 *
 * <h2>Threading</h2>
 * Every method is thread-safe; the server answers many concurrent calls without blocking a thread
 * (latency and pauses between streamed events run on a timer).
 */
public final class MockLlmServer implements AutoCloseable {

    /** Completion tokens reported when a test sets none. */
    public static final int DEFAULT_COMPLETION_TOKENS = 20;

    private static final String HOST = "127.0.0.1";
    private static final int MAX_THREADS = 200;
    private static final int MIN_THREADS = 4;
    /** Above the 50 the JDK picks by default, so 64+ simultaneous connects are not dropped and retried. */
    private static final int ACCEPT_QUEUE_SIZE = 512;
    private static final int MAX_CONCURRENT_HTTP2_STREAMS = 1024;

    private final RequestJournal journal = new RequestJournal();
    private final FaultScript script = new FaultScript();
    private final AtomicReference<ReplySettings> settings = new AtomicReference<>(ReplySettings.DEFAULTS);
    private final Server jetty;
    private final ServerConnector connector;

    private MockLlmServer() {
        QueuedThreadPool threads = new QueuedThreadPool(MAX_THREADS, MIN_THREADS);
        threads.setName("mock-llm");
        threads.setDaemon(true);
        ScheduledExecutorScheduler scheduler = new ScheduledExecutorScheduler("mock-llm-timer", true);
        jetty = new Server(threads, scheduler, null);

        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false);
        HTTP2CServerConnectionFactory http2 = new HTTP2CServerConnectionFactory(http);
        http2.setMaxConcurrentStreams(MAX_CONCURRENT_HTTP2_STREAMS);
        connector = new ServerConnector(jetty, 1, 1, new HttpConnectionFactory(http), http2);
        connector.setHost(HOST);
        connector.setPort(0);
        connector.setAcceptQueueSize(ACCEPT_QUEUE_SIZE);
        jetty.addConnector(connector);
        jetty.setHandler(new LlmRequestHandler(journal, script, settings::get, scheduler));
    }

    /** Starts a server with default settings on a free port of 127.0.0.1. */
    public static MockLlmServer start() {
        MockLlmServer server = new MockLlmServer();
        try {
            server.jetty.start();
        } catch (Exception e) {
            server.stop();
            throw new IllegalStateException("mock LLM server failed to start", e);
        }
        return server;
    }

    /** {@code http://127.0.0.1:<port>}, without a trailing slash. */
    public String baseUrl() {
        return "http://" + HOST + ":" + port();
    }

    /** {@link #baseUrl()} plus {@code pathAndQuery}, e.g. {@code uri("/v1/chat/completions")}. */
    public URI uri(String pathAndQuery) {
        if (!pathAndQuery.startsWith("/")) {
            throw new IllegalArgumentException("pathAndQuery must start with '/', was " + pathAndQuery);
        }
        return URI.create(baseUrl() + pathAndQuery);
    }

    public int port() {
        return connector.getLocalPort();
    }

    /** The faults this server plays; see {@link FaultScript}. */
    public FaultScript script() {
        return script;
    }

    /** Answers every call with this assistant text (streamed one word per event). */
    public MockLlmServer replyText(String text) {
        Objects.requireNonNull(text, "text");
        return update(current -> current.withReplyText(text));
    }

    /** Reports these usage numbers; completion tokens are still lowered to a smaller max-tokens. */
    public MockLlmServer usage(int promptTokens, int completionTokens) {
        requireNotNegative("promptTokens", promptTokens);
        requireNotNegative("completionTokens", completionTokens);
        return update(current -> current.withUsage(promptTokens, completionTokens));
    }

    /**
     * Reports that many of the reported prompt tokens as read from the provider's prompt cache, as
     * the real APIs do: OpenAI chat's {@code usage.prompt_tokens_details.cached_tokens} (written only
     * when above 0), the Responses API's {@code usage.input_tokens_details.cached_tokens}, and
     * Anthropic's {@code usage.cache_read_input_tokens}, Anthropic's {@code input_tokens} then
     * counting only the uncached rest. 0 by default; when larger than the prompt tokens of a reply,
     * it is capped at them.
     *
     * @param cachedPromptTokens must be >= 0
     */
    public MockLlmServer cachedTokens(int cachedPromptTokens) {
        requireNotNegative("cachedPromptTokens", cachedPromptTokens);
        return update(current -> current.withCachedPromptTokens(cachedPromptTokens));
    }

    /** Pauses this long between two streamed events, so tests can watch a stream arrive. */
    public MockLlmServer chunkDelay(Duration delay) {
        Objects.requireNonNull(delay, "delay");
        if (delay.isNegative()) {
            throw new IllegalArgumentException("chunkDelay must be >= 0, was " + delay);
        }
        return update(current -> current.withChunkDelay(delay));
    }

    /** Makes every LLM call carry this key ({@code Bearer}, {@code api-key} or {@code x-api-key}), else 401. */
    public MockLlmServer requireApiKey(String apiKey) {
        if (apiKey == null || apiKey.isBlank()) {
            String shown = apiKey == null ? "null" : "'" + apiKey + "'";
            throw new IllegalArgumentException("apiKey must not be blank, was " + shown);
        }
        return update(current -> current.withExpectedApiKey(apiKey));
    }

    /** Reports these values in the rate-limit headers; default {@link RateLimits#DEFAULT}. */
    public MockLlmServer rateLimits(RateLimits limits) {
        Objects.requireNonNull(limits, "limits");
        return update(current -> current.withRateLimits(limits));
    }

    /** Every request received since start or the last {@link #reset()}, in arrival order. */
    public List<RecordedRequest> requests() {
        return journal.snapshot();
    }

    public int requestCount() {
        return journal.size();
    }

    /**
     * The oldest request not yet taken, waiting up to {@code timeout} for it to arrive. Independent
     * of {@link #requests()}, which always lists everything.
     *
     * @throws AssertionError if none arrives in time
     */
    public RecordedRequest takeRequest(Duration timeout) {
        return journal.take(timeout);
    }

    /**
     * Waits until at least {@code count} requests have arrived, then returns them all.
     *
     * @throws AssertionError if fewer arrive in time
     */
    public List<RecordedRequest> awaitRequests(int count, Duration timeout) {
        return journal.awaitCount(count, timeout);
    }

    /** Forgets all requests, clears the fault script and restores every setting to its default. */
    public void reset() {
        journal.clear();
        script.clear();
        settings.set(ReplySettings.DEFAULTS);
    }

    /** Stops the server and frees its port; calls in flight are cut. Idempotent. */
    public void stop() {
        try {
            jetty.stop();
        } catch (Exception e) {
            throw new IllegalStateException("mock LLM server " + this + " failed to stop", e);
        }
    }

    /** Same as {@link #stop()}, for try-with-resources. */
    @Override
    public void close() {
        stop();
    }

    @Override
    public String toString() {
        return "MockLlmServer[" + baseUrl() + "]";
    }

    private MockLlmServer update(UnaryOperator<ReplySettings> change) {
        settings.updateAndGet(change);
        return this;
    }

    private static void requireNotNegative(String name, int value) {
        if (value < 0) {
            throw new IllegalArgumentException(name + " must be >= 0, was " + value);
        }
    }
}
