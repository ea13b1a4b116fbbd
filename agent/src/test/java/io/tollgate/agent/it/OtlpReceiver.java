package io.tollgate.agent.it;

import com.google.protobuf.ByteString;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.Span;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.zip.GZIPInputStream;

/** A tiny OTLP/HTTP (protobuf) collector on 127.0.0.1: keeps every span and metric it is sent. */
final class OtlpReceiver implements AutoCloseable {

  private final HttpServer server;
  private final List<Span> spans = new CopyOnWriteArrayList<>();
  private final List<Metric> metrics = new CopyOnWriteArrayList<>();
  private final Map<ByteString, String> services = new ConcurrentHashMap<>();
  private final Map<String, Set<String>> metricServices = new ConcurrentHashMap<>();

  private OtlpReceiver(HttpServer server) {
    this.server = server;
  }

  static OtlpReceiver start() throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    OtlpReceiver receiver = new OtlpReceiver(server);
    server.createContext("/v1/traces", exchange -> receiver.receive(exchange, body ->
        ExportTraceServiceRequest.parseFrom(body).getResourceSpansList().forEach(resource ->
            resource.getScopeSpansList().forEach(scope -> scope.getSpansList().forEach(span -> {
              receiver.services.put(span.getSpanId(), service(resource.getResource()));
              receiver.spans.add(span);
            })))));
    server.createContext("/v1/metrics", exchange -> receiver.receive(exchange, body ->
        ExportMetricsServiceRequest.parseFrom(body).getResourceMetricsList().forEach(resource ->
            resource.getScopeMetricsList().forEach(scope -> scope.getMetricsList().forEach(metric -> {
              receiver.metricServices.computeIfAbsent(metric.getName(), n -> ConcurrentHashMap.newKeySet())
                  .add(service(resource.getResource()));
              receiver.metrics.add(metric);
            })))));
    server.start();
    return receiver;
  }

  /** The base URL for {@code otel.exporter.otlp.endpoint}. */
  String endpoint() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  List<Span> spans() {
    return spans;
  }

  List<Metric> metrics() {
    return metrics;
  }

  /** The {@code service.name} of the resource {@code span} was exported with. */
  String serviceOf(Span span) {
    return services.get(span.getSpanId());
  }

  /** The {@code service.name}s of the resources points of {@code metric} came with. */
  Set<String> servicesOf(String metric) {
    return metricServices.getOrDefault(metric, Set.of());
  }

  private static String service(Resource resource) {
    return resource.getAttributesList().stream().filter(kv -> kv.getKey().equals("service.name"))
        .map(kv -> kv.getValue().getStringValue()).findFirst().orElse("");
  }

  private interface Decoder {
    void decode(byte[] body) throws IOException;
  }

  private void receive(HttpExchange exchange, Decoder decoder) throws IOException {
    try (exchange) {
      InputStream in = exchange.getRequestBody();
      if ("gzip".equalsIgnoreCase(exchange.getRequestHeaders().getFirst("Content-Encoding"))) {
        in = new GZIPInputStream(in);
      }
      decoder.decode(in.readAllBytes());
      exchange.getResponseHeaders().set("Content-Type", "application/x-protobuf");
      exchange.sendResponseHeaders(200, -1);
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
