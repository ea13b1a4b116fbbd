package io.tollgate.sdkit.app;

import static net.bytebuddy.matcher.ElementMatchers.named;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.util.Properties;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.implementation.FixedValue;
import redis.clients.jedis.JedisPooled;

/**
 * An app that brings its own versions of libraries the agent bundles (Jedis, ByteBuddy, OkHttp
 * under the OpenAI SDK) and uses them beside its LLM calls: {@code jedis} writes and reads a key
 * of its own in {@code REDIS_URL}, {@code bytebuddy} makes a class, {@code chat} is the OpenAI
 * SDK's. Each of the first two prints the version of the library that ran (its {@code model=}).
 */
public final class OwnLibrariesApp extends SdkApp {

  static final String MADE = "made by the app's ByteBuddy";

  private final OpenAiSdkApp openAi = new OpenAiSdkApp();

  public static void main(String[] args) {
    new OwnLibrariesApp().run(args);
  }

  @Override
  protected Reply chat() {
    return openAi.chat();
  }

  @Override
  protected Reply stream() {
    return openAi.stream();
  }

  @Override
  protected Failure describe(Throwable failure) {
    return openAi.describe(failure);
  }

  @Override
  protected Reply other(String step) throws Exception {
    return switch (step) {
      case "jedis" -> jedis();
      case "bytebuddy" -> byteBuddy();
      default -> super.other(step);
    };
  }

  private static Reply jedis() throws IOException {
    try (JedisPooled jedis = new JedisPooled(URI.create(env("REDIS_URL")))) {
      jedis.set("app:own-jedis", "kept");
      return new Reply(version(JedisPooled.class, "redis.clients", "jedis"), jedis.get("app:own-jedis"), "-");
    }
  }

  private static Reply byteBuddy() throws Exception {
    Class<?> made = new ByteBuddy().subclass(Object.class)
        .method(named("toString")).intercept(FixedValue.value(MADE))
        .make()
        .load(OwnLibrariesApp.class.getClassLoader())
        .getLoaded();
    return new Reply(version(ByteBuddy.class, "net.bytebuddy", "byte-buddy"),
        made.getDeclaredConstructor().newInstance().toString(), "-");
  }

  /** The version in the jar's Maven metadata: which copy of the library the app is running. */
  private static String version(Class<?> type, String group, String artifact) throws IOException {
    String resource = "/META-INF/maven/" + group + "/" + artifact + "/pom.properties";
    try (InputStream in = type.getResourceAsStream(resource)) {
      if (in == null) {
        return "unknown";
      }
      Properties properties = new Properties();
      properties.load(in);
      return properties.getProperty("version", "unknown");
    }
  }
}
