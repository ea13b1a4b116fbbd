package io.tollgate.agent.it.app;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Base64;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;

/**
 * An unmodified app as the agent meets it: plain OkHttp, no Tollgate on its class path but the
 * agent jar. It makes the calls its arguments list, one after the other, and prints what OkHttp
 * handed it.
 *
 * <pre>
 * OkHttpApp (sync|async|stream) URL (JSON|-) [(sync|async|stream) URL (JSON|-) ...]
 * </pre>
 *
 * Each call prints one line: {@code call N MODE status=200 retry-after=- content-type=... body=BASE64}.
 * The headers sent are those of {@link AppHeaders}; with {@code APP_TENANT} set, every call
 * is made (and every {@code enqueue} called) with that tenant bound on the main thread. With
 * {@code -Dapp.linger-ms=N} it stays N ms after {@code app done} before it ends, as a service
 * would: long enough for a periodic telemetry export to carry what the calls recorded.
 */
public final class OkHttpApp {

  private static final MediaType JSON = MediaType.parse("application/json");

  private OkHttpApp() {}

  public static void main(String[] args) throws Exception {
    System.out.println("app started");
    OkHttpClient client = new OkHttpClient.Builder()
        .readTimeout(20, TimeUnit.SECONDS)
        .build();
    String tenantId = System.getenv("APP_TENANT");
    // AppTenant (which names Tollgate's Tenants) is loaded only when a tenant is asked for
    try (AutoCloseable tenant = tenantId == null ? () -> { } : AppTenant.bind(tenantId)) {
      for (int i = 0; i + 2 < args.length; i += 3) {
        String mode = args[i];
        Request.Builder request = new Request.Builder().url(args[i + 1]);
        for (String[] header : AppHeaders.all()) {
          request.header(header[0], header[1]);
        }
        if (!args[i + 2].equals("-")) {
          request.post(RequestBody.create(JSON, args[i + 2]));
        }
        Call call = client.newCall(request.build());
        String line = mode.equals("async") ? enqueue(call) : execute(call, mode.equals("stream"));
        System.out.println("call " + (i / 3 + 1) + " " + mode + " " + line);
      }
    } finally {
      client.dispatcher().executorService().shutdown();
      client.connectionPool().evictAll();
    }
    System.out.println("app done");
    Thread.sleep(Long.getLong("app.linger-ms", 0));
  }

  private static String execute(Call call, boolean stream) throws IOException {
    try (Response response = call.execute()) {
      return describe(response, stream);
    }
  }

  private static String enqueue(Call call) throws Exception {
    CompletableFuture<String> line = new CompletableFuture<>();
    call.enqueue(new Callback() {
      @Override
      public void onFailure(Call failed, IOException e) {
        line.completeExceptionally(e);
      }

      @Override
      public void onResponse(Call answered, Response response) {
        try (Response r = response) {
          line.complete(describe(r, false));
        } catch (IOException | RuntimeException e) {
          line.completeExceptionally(e);
        }
      }
    });
    return line.get(30, TimeUnit.SECONDS);
  }

  static String describe(Response response, boolean stream) throws IOException {
    byte[] body;
    if (stream) {
      // read as a streaming client does: small reads as the events arrive
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      try (InputStream in = response.body().byteStream()) {
        byte[] chunk = new byte[64];
        for (int n; (n = in.read(chunk)) != -1; ) {
          out.write(chunk, 0, n);
        }
      }
      body = out.toByteArray();
    } else {
      body = response.body().bytes();
    }
    return "status=" + response.code()
        + " retry-after=" + orDash(response.header("Retry-After"))
        + " content-type=" + orDash(response.header("Content-Type"))
        + " body=" + Base64.getEncoder().encodeToString(body);
  }

  private static String orDash(String value) {
    return value == null ? "-" : value;
  }
}
