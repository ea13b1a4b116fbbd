package io.tollgate.agent.it.app;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * An unmodified app as the agent meets it: the JDK's own {@code HttpClient}, nothing else. It makes
 * the calls its arguments list and prints what the client handed it.
 *
 * <pre>
 * JdkHttpClientApp (send|stream|async|lines) URL (JSON|-) [...]
 * </pre>
 *
 * <ul>
 *   <li>{@code send}: {@code send} with {@code BodyHandlers.ofString()};</li>
 *   <li>{@code stream}: {@code send} with {@code ofInputStream()}, read in small chunks as a
 *       streaming client does;</li>
 *   <li>{@code async}: {@code sendAsync} with {@code ofByteArray()}; consecutive async calls are
 *       all submitted before the first is awaited, each printing {@code submitted N at MILLIS};</li>
 *   <li>{@code lines}: {@code sendAsync} with {@code ofLines()}, the lines printed joined by
 *       {@code \n}, each ending with one.</li>
 * </ul>
 *
 * Each call prints {@code version N HTTP_1_1} and
 * {@code call N MODE status=200 retry-after=- content-type=... body=BASE64}, or
 * {@code call N MODE failed=EXCEPTION_CLASS} when the client threw (or its future failed with) an
 * {@code IOException}.
 * {@code -Dapp.http=2} asks the client for HTTP/2 (h2c by upgrade on a cleartext URL), else
 * HTTP/1.1; {@code -Dapp.redirects=normal} has it follow redirects ({@code Redirect.NORMAL}),
 * else it follows none; {@code -Dapp.hold=true} keeps it running after its calls until its stdin
 * closes. The headers sent are those of {@link AppHeaders}.
 */
public final class JdkHttpClientApp {

  private JdkHttpClientApp() {}

  public static void main(String[] args) throws Exception {
    System.out.println("app started");
    HttpClient client = HttpClient.newBuilder()
        .version("2".equals(System.getProperty("app.http")) ? HttpClient.Version.HTTP_2
            : HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(10))
        .followRedirects("normal".equals(System.getProperty("app.redirects"))
            ? HttpClient.Redirect.NORMAL : HttpClient.Redirect.NEVER)
        .build();
    List<Pending> submitted = new ArrayList<>();
    for (int i = 0; i + 2 < args.length; i += 3) {
      int number = i / 3 + 1;
      String mode = args[i];
      HttpRequest request = request(args[i + 1], args[i + 2]);
      if (mode.equals("async")) {
        CompletableFuture<HttpResponse<byte[]>> future =
            client.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray());
        System.out.println("submitted " + number + " at " + System.currentTimeMillis());
        submitted.add(new Pending(number, future));
        continue;
      }
      awaitAll(submitted);
      String line;
      try {
        line = call(client, mode, number, request);
      } catch (IOException e) {
        line = "failed=" + e.getClass().getName();
      }
      System.out.println("call " + number + " " + mode + " " + line);
    }
    awaitAll(submitted);
    System.out.println("app done");
    if (Boolean.getBoolean("app.hold")) {
      // the test reads what the agent serves while the app runs, then closes our stdin
      System.in.transferTo(OutputStream.nullOutputStream());
    }
  }

  private static String call(HttpClient client, String mode, int number, HttpRequest request)
      throws Exception {
    return switch (mode) {
      case "send" -> {
        HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
        yield describe(number, response, response.body().getBytes(StandardCharsets.UTF_8));
      }
      case "stream" -> {
        HttpResponse<InputStream> response =
            client.send(request, HttpResponse.BodyHandlers.ofInputStream());
        yield describe(number, response, readInChunks(response.body()));
      }
      case "lines" -> {
        HttpResponse<Stream<String>> response = client
            .sendAsync(request, HttpResponse.BodyHandlers.ofLines()).get(30, TimeUnit.SECONDS);
        String text = response.body().map(l -> l + "\n").collect(Collectors.joining());
        yield describe(number, response, text.getBytes(StandardCharsets.UTF_8));
      }
      default -> throw new IllegalArgumentException("unknown mode " + mode);
    };
  }

  private static HttpRequest request(String url, String json) {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url))
        .timeout(Duration.ofSeconds(20));
    for (String[] header : AppHeaders.all()) {
      request.header(header[0], header[1]);
    }
    if (!json.equals("-")) {
      request.header("Content-Type", "application/json")
          .POST(HttpRequest.BodyPublishers.ofString(json));
    }
    return request.build();
  }

  private static void awaitAll(List<Pending> submitted) throws Exception {
    for (Pending pending : submitted) {
      HttpResponse<byte[]> response;
      try {
        response = pending.future().get(30, TimeUnit.SECONDS);
      } catch (ExecutionException e) {
        System.out.println("call " + pending.number() + " async failed="
            + e.getCause().getClass().getName());
        continue;
      }
      System.out.println("call " + pending.number() + " async "
          + describe(pending.number(), response, response.body()));
    }
    submitted.clear();
  }

  private static byte[] readInChunks(InputStream body) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (InputStream in = body) {
      byte[] chunk = new byte[64];
      for (int n; (n = in.read(chunk)) != -1; ) {
        out.write(chunk, 0, n);
      }
    }
    return out.toByteArray();
  }

  /** The call's line; its HTTP version goes on a line of its own before it. */
  static String describe(int number, HttpResponse<?> response, byte[] body) {
    System.out.println("version " + number + " " + response.version());
    return "status=" + response.statusCode()
        + " retry-after=" + response.headers().firstValue("Retry-After").orElse("-")
        + " content-type=" + response.headers().firstValue("Content-Type").orElse("-")
        + " body=" + Base64.getEncoder().encodeToString(body);
  }

  private record Pending(int number, CompletableFuture<HttpResponse<byte[]>> future) {}
}
