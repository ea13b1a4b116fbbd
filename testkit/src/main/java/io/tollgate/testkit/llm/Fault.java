package io.tollgate.testkit.llm;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a scripted call does instead of (or on top of) succeeding. Error replies take the shape of
 * the API that was called: OpenAI, Azure OpenAI or Anthropic headers and error bodies. Immutable;
 * one instance may be scripted any number of times.
 *
 * <pre>{@code
 * server.script().next(2, Fault.rateLimited(Duration.ofSeconds(2)));
 * server.script().always(Fault.status(503).withLatency(Duration.ofMillis(200)));
 * }</pre>
 */
public final class Fault {

    /** The body of {@link #malformedJson()}: a completion cut off mid-string. */
    public static final String MALFORMED_JSON_BODY =
            "{\"id\":\"chatcmpl-malformed\",\"object\":\"chat.completion\",\"choices\":[{\"index\":0,"
                    + "\"message\":{\"role\":\"assistant\",\"content\":\"Hel";

    /**
     * The body of {@link #malformedSse()}: one valid chunk, a line that is no SSE field, a
     * {@code data:} line with broken JSON, then {@code [DONE]}.
     */
    public static final String MALFORMED_SSE_BODY =
            "data: {\"id\":\"chatcmpl-malformed\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,"
                    + "\"delta\":{\"content\":\"Hel\"},\"finish_reason\":null}]}\n\n"
                    + "this line is not a server-sent event field\n\n"
                    + "data: {\"choices\":[{\"delta\":{\"content\":\n\n"
                    + "data: [DONE]\n\n";

    private static final int DEFAULT_EVENTS_BEFORE_RESET = 2;

    private enum Kind { NONE, STATUS, OVERLOADED, RATE_LIMITED, RESET_MID_BODY, MALFORMED_JSON, MALFORMED_SSE, REDIRECT }

    private final Kind kind;
    private final int status;
    private final LimitedDimension dimension;
    private final Duration retryAfter;
    private final int eventsBeforeReset;
    private final byte[] body;
    private final Duration latency;
    /** Where a redirect points; null for the other kinds. */
    private final String location;

    private Fault(Kind kind, int status, LimitedDimension dimension, Duration retryAfter, int eventsBeforeReset,
                  byte[] body, Duration latency) {
        this(kind, status, dimension, retryAfter, eventsBeforeReset, body, latency, null);
    }

    private Fault(Kind kind, int status, LimitedDimension dimension, Duration retryAfter, int eventsBeforeReset,
                  byte[] body, Duration latency, String location) {
        this.kind = kind;
        this.status = status;
        this.dimension = dimension;
        this.retryAfter = retryAfter;
        this.eventsBeforeReset = eventsBeforeReset;
        this.body = body;
        this.latency = latency;
        this.location = location;
    }

    private static Fault of(Kind kind) {
        return new Fault(kind, 0, null, Duration.ZERO, 0, null, Duration.ZERO);
    }

    /** No fault: the normal reply. Useful to script successes between faults. */
    public static Fault none() {
        return of(Kind.NONE);
    }

    /** The normal reply, after {@code delay} before the response headers. */
    public static Fault latency(Duration delay) {
        return none().withLatency(delay);
    }

    /**
     * An error with this status (400..599) and the provider's error body for it, e.g. 500 or 503.
     * A 429 made this way has no rate-limit headers; use {@link #rateLimited} for those.
     */
    public static Fault status(int status) {
        if (status < 400 || status > 599) {
            throw new IllegalArgumentException("status must be within 400..599, was " + status);
        }
        return new Fault(Kind.STATUS, status, null, Duration.ZERO, 0, null, Duration.ZERO);
    }

    /**
     * An error with this status (400..599) and exactly this body, as {@code application/json}: a
     * failure whose body a test compares byte for byte.
     */
    public static Fault status(int status, String body) {
        Objects.requireNonNull(body, "body");
        Fault fault = status(status);
        return new Fault(Kind.STATUS, fault.status, null, Duration.ZERO, 0,
                body.getBytes(StandardCharsets.UTF_8), Duration.ZERO);
    }

    /**
     * The provider's overload answer: Anthropic's 529 {@code overloaded_error}; for OpenAI and
     * Azure a 503 "The engine is currently overloaded".
     */
    public static Fault overloaded() {
        return of(Kind.OVERLOADED);
    }

    /**
     * A 429 for exhausted requests-per-window: {@code retry-after} (seconds, rounded up), OpenAI
     * and Azure also {@code retry-after-ms}; rate-limit headers with 0 remaining requests resetting
     * after {@code retryAfter}; the provider's rate-limit error body.
     */
    public static Fault rateLimited(Duration retryAfter) {
        return rateLimited(LimitedDimension.REQUESTS, retryAfter);
    }

    /** Like {@link #rateLimited} but for exhausted tokens-per-window (0 remaining tokens). */
    public static Fault tokenRateLimited(Duration retryAfter) {
        return rateLimited(LimitedDimension.TOKENS, retryAfter);
    }

    /** {@link #resetMidStream(int)} after 2 events. */
    public static Fault resetMidStream() {
        return resetMidStream(DEFAULT_EVENTS_BEFORE_RESET);
    }

    /**
     * A 200 whose body is cut off: for a streamed call the headers and the first
     * {@code eventsBeforeReset} events are sent and flushed, then the connection is aborted
     * (HTTP/1.1: closed without the final chunk; HTTP/2: the stream is reset). For a JSON call,
     * half the body is sent under a {@code Content-Length} for all of it. The cut comes 200 ms
     * (or the server's chunk delay, if longer) after the last bytes sent, so a client reading
     * through an {@code InputStream} gets to read them before it fails.
     */
    public static Fault resetMidStream(int eventsBeforeReset) {
        if (eventsBeforeReset < 0) {
            throw new IllegalArgumentException("eventsBeforeReset must be >= 0, was " + eventsBeforeReset);
        }
        return new Fault(Kind.RESET_MID_BODY, 0, null, Duration.ZERO, eventsBeforeReset, null, Duration.ZERO);
    }

    /**
     * A redirect: {@code status} (301, 302, 303, 307 or 308) with {@code Location: location} and an
     * empty body, as a provider moved elsewhere (or a hostile one) answers.
     */
    public static Fault redirect(int status, String location) {
        if (status != 301 && status != 302 && status != 303 && status != 307 && status != 308) {
            throw new IllegalArgumentException("status must be 301, 302, 303, 307 or 308, was " + status);
        }
        Objects.requireNonNull(location, "location");
        return new Fault(Kind.REDIRECT, status, null, Duration.ZERO, 0, null, Duration.ZERO, location);
    }

    /** A 200 {@code application/json} whose body is {@link #MALFORMED_JSON_BODY}. */
    public static Fault malformedJson() {
        return malformedJson(MALFORMED_JSON_BODY);
    }

    /** A 200 {@code application/json} with exactly this (presumably invalid) body. */
    public static Fault malformedJson(String body) {
        return withBody(Kind.MALFORMED_JSON, body);
    }

    /** A 200 {@code text/event-stream} whose body is {@link #MALFORMED_SSE_BODY}. */
    public static Fault malformedSse() {
        return malformedSse(MALFORMED_SSE_BODY);
    }

    /** A 200 {@code text/event-stream} with exactly this (presumably broken) body. */
    public static Fault malformedSse(String body) {
        return withBody(Kind.MALFORMED_SSE, body);
    }

    /** This fault, answered only after {@code delay} (before the response headers). */
    public Fault withLatency(Duration delay) {
        Objects.requireNonNull(delay, "delay");
        if (delay.isNegative()) {
            throw new IllegalArgumentException("latency must be >= 0, was " + delay);
        }
        return new Fault(kind, status, dimension, retryAfter, eventsBeforeReset, body, delay, location);
    }

    /** The added delay before the response headers; zero unless set. */
    public Duration latency() {
        return latency;
    }

    /**
     * The exact bytes a malformed-body fault sends, for comparison in tests.
     *
     * @throws IllegalStateException for faults whose body depends on the API that is called
     */
    public byte[] body() {
        if (body == null) {
            throw new IllegalStateException(this + " has no fixed body: its body depends on the API called");
        }
        return body.clone();
    }

    /** This fault's reply to {@code call} on {@code api}. */
    Reply replyFor(ProviderApi api, ApiCall call) {
        return switch (kind) {
            case NONE, RESET_MID_BODY -> api.success(call);
            case STATUS -> body == null ? api.failure(call, status) : Reply.json(status, body);
            case OVERLOADED -> api.overloaded(call);
            case RATE_LIMITED -> api.rateLimited(call, dimension, retryAfter);
            case MALFORMED_JSON -> Reply.json(200, body);
            case MALFORMED_SSE -> Reply.eventStream(List.of(body));
            case REDIRECT -> new Reply(status, Map.of("location", location), List.of(new byte[0]), false);
        };
    }

    boolean resetsMidBody() {
        return kind == Kind.RESET_MID_BODY;
    }

    int eventsBeforeReset() {
        return eventsBeforeReset;
    }

    @Override
    public String toString() {
        String description = switch (kind) {
            case NONE -> "none";
            case STATUS -> "status(" + status + ")";
            case OVERLOADED -> "overloaded()";
            case RATE_LIMITED -> (dimension == LimitedDimension.REQUESTS ? "rateLimited(" : "tokenRateLimited(")
                    + retryAfter + ")";
            case RESET_MID_BODY -> "resetMidStream(" + eventsBeforeReset + ")";
            case MALFORMED_JSON -> "malformedJson()";
            case MALFORMED_SSE -> "malformedSse()";
            case REDIRECT -> "redirect(" + status + ", " + location + ")";
        };
        return "Fault." + description + (latency.isZero() ? "" : ".withLatency(" + latency + ")");
    }

    private static Fault rateLimited(LimitedDimension dimension, Duration retryAfter) {
        Objects.requireNonNull(retryAfter, "retryAfter");
        if (retryAfter.isNegative()) {
            throw new IllegalArgumentException("retryAfter must be >= 0, was " + retryAfter);
        }
        return new Fault(Kind.RATE_LIMITED, 429, dimension, retryAfter, 0, null, Duration.ZERO);
    }

    private static Fault withBody(Kind kind, String body) {
        Objects.requireNonNull(body, "body");
        return new Fault(kind, 200, null, Duration.ZERO, 0, body.getBytes(StandardCharsets.UTF_8), Duration.ZERO);
    }
}
