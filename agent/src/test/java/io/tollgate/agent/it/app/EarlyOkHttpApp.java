package io.tollgate.agent.it.app;

import java.util.concurrent.TimeUnit;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;

/**
 * An app that builds its OkHttp client as early as an app can: in its main class's static
 * initializer, before {@code main} runs, while the main class's initialisation lock is held and
 * the agent is still starting on its own thread. Then it posts the JSON to the URL as often as
 * asked, one call after the other, each printed as {@link OkHttpApp} prints it.
 *
 * <pre>
 * EarlyOkHttpApp URL JSON TIMES
 * </pre>
 */
public final class EarlyOkHttpApp {

  private static final OkHttpClient CLIENT = new OkHttpClient.Builder()
      .readTimeout(20, TimeUnit.SECONDS)
      .build();
  private static final MediaType JSON = MediaType.parse("application/json");

  private EarlyOkHttpApp() {}

  public static void main(String[] args) throws Exception {
    System.out.println("app started");
    String key = System.getenv().getOrDefault("APP_KEY", "app-key");
    try {
      for (int i = 1; i <= Integer.parseInt(args[2]); i++) {
        Request request = new Request.Builder().url(args[0])
            .header("Authorization", "Bearer " + key)
            .post(RequestBody.create(JSON, args[1]))
            .build();
        try (Response response = CLIENT.newCall(request).execute()) {
          System.out.println("call " + i + " sync " + OkHttpApp.describe(response, false));
        }
      }
      // the agent's advice adds its interceptor to every builder, as long as the advice is in
      System.out.println("a builder made now starts with "
          + new OkHttpClient.Builder().interceptors().size() + " interceptors");
    } finally {
      CLIENT.dispatcher().executorService().shutdown();
      CLIENT.connectionPool().evictAll();
    }
    System.out.println("app done");
  }
}
