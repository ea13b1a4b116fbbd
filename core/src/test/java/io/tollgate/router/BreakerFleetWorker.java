package io.tollgate.router;

import io.tollgate.config.BreakerConfig;
import io.tollgate.redis.RedisConnection;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * Another instance of the fleet in its own JVM, for {@link ForkedJvmBreakerTest}: one provider's
 * breaker, driven one command per line on stdin, one answer per line on stdout.
 *
 * <p>Arguments: redis port, provider, open-for ms. Commands: {@code fail} (a 5xx), {@code success},
 * {@code acquire} (answers true or false), {@code state} (answers the state and who opened it),
 * {@code quit}. Every answer starts with {@code >} so that log lines cannot be mistaken for one.
 */
public final class BreakerFleetWorker {

  public static void main(String[] args) throws Exception {
    URI redis = URI.create("redis://127.0.0.1:" + Integer.parseInt(args[0]));
    String provider = args[1];
    Duration openFor = Duration.ofMillis(Long.parseLong(args[2]));
    BreakerConfig config = BreakerConfig.builder()
        .openFor(openFor).maxOpenFor(openFor.multipliedBy(4)).build();
    try (RedisConnection client = RedisConnection.standalone(redis)
        .timeout(Duration.ofMillis(500)).poolSize(4).build();
        ProviderBreakers breakers = ProviderBreakers.builder(config).redis(client).build()) {
      ProviderBreaker breaker = breakers.breaker(provider);
      BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      System.out.println(">ready");
      for (String line; (line = in.readLine()) != null; ) {
        switch (line) {
          case "fail" -> {
            breaker.onFailure(FailureKind.SERVER_ERROR);
            System.out.println(">ok");
          }
          case "success" -> {
            breaker.onSuccess(Duration.ofMillis(100));
            System.out.println(">ok");
          }
          case "acquire" -> System.out.println(">" + breaker.tryAcquirePermission());
          case "state" -> System.out.println(">" + breaker.state() + " "
              + breaker.openedBy().map(Enum::name).orElse("-"));
          case "quit" -> {
            return;
          }
          default -> System.out.println(">unknown command " + line);
        }
      }
    }
  }
}
