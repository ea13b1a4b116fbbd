package io.tollgate.testkit.llm;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.server.Request;

/**
 * One request as the mock received it: method, path, query, headers, body, HTTP version and
 * arrival time. Immutable; header names are looked up case-insensitively (HTTP/2 lower-cases them,
 * HTTP/1.1 keeps the client's spelling).
 */
public final class RecordedRequest {

    private final int sequenceNumber;
    private final String method;
    private final String path;
    private final String query;
    private final Map<String, List<String>> headers;
    private final byte[] body;
    private final String httpVersion;
    private final Instant arrivedAt;

    private RecordedRequest(int sequenceNumber, String method, String path, String query,
                            Map<String, List<String>> headers, byte[] body, String httpVersion, Instant arrivedAt) {
        this.sequenceNumber = sequenceNumber;
        this.method = method;
        this.path = path;
        this.query = query;
        this.headers = headers;
        this.body = body;
        this.httpVersion = httpVersion;
        this.arrivedAt = arrivedAt;
    }

    static RecordedRequest from(int sequenceNumber, Request request, byte[] body) {
        Map<String, List<String>> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        for (HttpField field : request.getHeaders()) {
            headers.computeIfAbsent(field.getName(), name -> new ArrayList<>()).add(field.getValue());
        }
        headers.replaceAll((name, values) -> List.copyOf(values));
        String query = request.getHttpURI().getQuery();
        return new RecordedRequest(
                sequenceNumber,
                request.getMethod(),
                request.getHttpURI().getPath(),
                query == null ? "" : query,
                Collections.unmodifiableMap(headers),
                body,
                request.getConnectionMetaData().getHttpVersion().asString(),
                Instant.ofEpochMilli(Request.getTimeStamp(request)));
    }

    /** 1 for the first request since the server started or was last {@linkplain MockLlmServer#reset() reset}. */
    public int sequenceNumber() {
        return sequenceNumber;
    }

    public String method() {
        return method;
    }

    /** The raw (not percent-decoded) path, e.g. {@code /openai/deployments/gpt-4o/chat/completions}. */
    public String path() {
        return path;
    }

    /** The raw query string without the {@code ?}, or {@code ""} when there is none. */
    public String query() {
        return query;
    }

    /** The first value of a query parameter, percent-decoded, or {@code null} when absent. */
    public String queryParameter(String name) {
        for (String pair : query.split("&")) {
            int equals = pair.indexOf('=');
            String key = equals < 0 ? pair : pair.substring(0, equals);
            if (URLDecoder.decode(key, StandardCharsets.UTF_8).equals(name)) {
                return equals < 0 ? "" : URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8);
            }
        }
        return null;
    }

    /** The first value of a header (name case-insensitive), or {@code null} when absent. */
    public String header(String name) {
        List<String> values = headers.get(name);
        return values == null ? null : values.get(0);
    }

    /** Every value of a header (name case-insensitive), in arrival order; empty when absent. */
    public List<String> headers(String name) {
        return headers.getOrDefault(name, List.of());
    }

    /** All headers; the map's lookups are case-insensitive. */
    public Map<String, List<String>> headers() {
        return headers;
    }

    /** A copy of the body bytes exactly as received. */
    public byte[] body() {
        return body.clone();
    }

    public String bodyText() {
        return new String(body, StandardCharsets.UTF_8);
    }

    /** The body parsed as JSON; throws {@link UncheckedIOException} if it is not JSON. */
    public JsonNode json() {
        try {
            return Json.parse(body);
        } catch (IOException e) {
            throw new UncheckedIOException("body of " + this + " is not JSON", e);
        }
    }

    /** The protocol as Jetty names it on the wire: {@code HTTP/1.1} or {@code HTTP/2.0}. */
    public String httpVersion() {
        return httpVersion;
    }

    /** When the request's headers arrived, at millisecond precision. */
    public Instant arrivedAt() {
        return arrivedAt;
    }

    @Override
    public String toString() {
        return "#" + sequenceNumber + " " + method + " " + path + (query.isEmpty() ? "" : "?" + query)
                + " " + httpVersion;
    }
}
