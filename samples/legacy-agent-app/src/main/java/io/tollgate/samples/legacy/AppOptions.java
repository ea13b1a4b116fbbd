package io.tollgate.samples.legacy;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The app's command line. The provider's URL and key may also come from {@code LLM_BASE_URL} and
 * {@code LLM_API_KEY}, as such apps usually take them.
 */
record AppOptions(URI baseUrl, String apiKey, List<String> clients, int threads, Duration duration,
    int callsPerThread, Duration pause, String model, int maxTokens) {

  static final String USAGE = "usage: --base-url URL --api-key KEY [--clients okhttp,jdk,apache]"
      + " [--threads 2] [--duration 30s] [--calls N per thread] [--pause 100ms] [--model gpt-4o]"
      + " [--max-tokens 64]";

  static AppOptions parse(String[] args, Map<String, String> environment) {
    String baseUrl = environment.get("LLM_BASE_URL");
    String apiKey = environment.get("LLM_API_KEY");
    List<String> clients = ChatClient.NAMES;
    int threads = 2;
    Duration duration = Duration.ofSeconds(30);
    int calls = Integer.MAX_VALUE;
    Duration pause = Duration.ofMillis(100);
    String model = "gpt-4o";
    int maxTokens = 64;
    for (int i = 0; i < args.length; i++) {
      String name = args[i];
      if (i + 1 >= args.length) {
        throw new IllegalArgumentException(name + " needs a value");
      }
      String value = args[++i];
      switch (name) {
        case "--base-url" -> baseUrl = value;
        case "--api-key" -> apiKey = value;
        case "--clients" -> clients = List.of(value.split(","));
        case "--threads" -> threads = positive(name, value);
        case "--duration" -> duration = duration(name, value);
        case "--calls" -> calls = positive(name, value);
        case "--pause" -> pause = duration(name, value);
        case "--model" -> model = value;
        case "--max-tokens" -> maxTokens = positive(name, value);
        default -> throw new IllegalArgumentException("unknown option " + name);
      }
    }
    if (baseUrl == null || apiKey == null) {
      throw new IllegalArgumentException("--base-url and --api-key (or LLM_BASE_URL, LLM_API_KEY) are required");
    }
    for (String client : clients) {
      if (!ChatClient.NAMES.contains(client)) {
        throw new IllegalArgumentException("--clients takes " + ChatClient.NAMES + ", was " + client);
      }
    }
    return new AppOptions(URI.create(baseUrl.replaceAll("/+$", "")), apiKey, List.copyOf(clients),
        threads, duration, calls, pause, model, maxTokens);
  }

  URI chatCompletions() {
    return URI.create(baseUrl + "/v1/chat/completions");
  }

  private static int positive(String name, String value) {
    try {
      int number = Integer.parseInt(value);
      if (number > 0) {
        return number;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(name + " must be a whole number > 0, was " + value);
  }

  /** {@code 250ms}, {@code 30s} or {@code 2m}. */
  private static Duration duration(String name, String value) {
    var m = java.util.regex.Pattern.compile("(\\d+)(ms|s|m)").matcher(value);
    if (!m.matches()) {
      throw new IllegalArgumentException(name + " must be like 250ms, 30s or 2m, was " + value);
    }
    long amount = Long.parseLong(m.group(1));
    return switch (m.group(2)) {
      case "ms" -> Duration.ofMillis(amount);
      case "s" -> Duration.ofSeconds(amount);
      default -> Duration.ofMinutes(amount);
    };
  }
}
