package io.tollgate.overrides;

import io.tollgate.config.ConfigException;
import io.tollgate.config.TollgateConfig;
import io.tollgate.config.TollgateConfigLoader;
import io.tollgate.redis.RedisConnection;
import io.tollgate.redis.RedisFailures;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The operator's command line over the live overrides of a fleet, run from the agent's jar:
 * {@code java -jar tollgate-agent.jar tenants set acme --requests-per-minute 600}. It reads the
 * configuration the fleet runs with (for its Redis and to check what is set, as the instances
 * will), changes the overrides in Redis and exits; every instance has it within a poll.
 */
public final class AdminCommand {

  /** Exit status: done. */
  static final int OK = 0;
  /** Exit status: Redis did not answer, or failed. */
  static final int UNREACHABLE = 1;
  /** Exit status: the command or a value was wrong; nothing was changed. */
  static final int USAGE = 2;

  static final String USAGE_TEXT = """
      usage: java -jar tollgate-agent.jar [--config FILE] COMMAND
        tenants set ID --LIMIT-KEY VALUE...     e.g. tenants set acme --requests-per-minute 600
        tenants remove ID
        providers set NAME --LIMIT-KEY VALUE...
        providers remove NAME
        models set PROVIDER MODEL --LIMIT-KEY VALUE...
        models remove PROVIDER MODEL
        mode set MODE [--canary-percent N]      enforce, shadow, advisory, canary or off, live
        mode remove                             back to the configuration's mode
        list                                    the overrides in force
        audit [--last N]                        the latest changes, newest first (default 20)
      LIMIT-KEY: any key of a limits: section (requests-per-minute, tokens-per-day, usd-per-day...)
      --by NAME: who makes the change (default: user@host); --config: the fleet's configuration
      (default: -Dtollgate.config, else TOLLGATE_CONFIG), which must name its redis.
      """;

  private AdminCommand() {}

  /** The command prints its own lines: the instances' log line of each new version is not one. */
  private static final java.util.logging.Logger QUIET =
      java.util.logging.Logger.getLogger(Overrides.class.getName());

  public static void main(String[] args) {
    QUIET.setLevel(java.util.logging.Level.WARNING);
    System.exit(run(List.of(args), System.getenv(), System.out, System.err));
  }

  /** Runs one command; the exit status. */
  public static int run(List<String> args, Map<String, String> environment, PrintStream out,
      PrintStream err) {
    Arguments parsed;
    try {
      parsed = Arguments.parse(args);
    } catch (IllegalArgumentException e) {
      err.println("tollgate: " + e.getMessage());
      err.print(USAGE_TEXT);
      return USAGE;
    }
    if (parsed.command.isEmpty() || parsed.command.get(0).equals("help")) {
      out.print(USAGE_TEXT);
      return parsed.command.isEmpty() ? USAGE : OK;
    }
    TollgateConfig config;
    try {
      config = load(parsed.config, environment);
    } catch (ConfigException e) {
      err.println("tollgate: " + e.getMessage());
      return USAGE;
    }
    if (config.redis().isEmpty()) {
      err.println("tollgate: " + TollgateConfig.ROOT + ".redis is not configured: live overrides"
          + " are kept in the fleet's Redis");
      return USAGE;
    }
    try (RedisConnection redis = config.redis().get().newConnection();
        Overrides overrides = new Overrides(OverrideStore.redis(redis), config, true)) {
      return execute(parsed, overrides, out, err);
    } catch (IllegalArgumentException e) { // a ConfigException too: a wrong name or value
      err.println("tollgate: " + e.getMessage());
      return USAGE;
    } catch (RuntimeException e) {
      if (!RedisFailures.isRedisFailure(e)) {
        throw e;
      }
      err.println("tollgate: Redis did not answer: " + RedisFailures.describe(e) + "; nothing changed");
      return UNREACHABLE;
    }
  }

  private static int execute(Arguments args, Overrides overrides, PrintStream out, PrintStream err) {
    List<String> words = args.command;
    String noun = words.get(0);
    if (noun.equals("list")) {
      expect(words, 1);
      List<OverrideEntry> entries = overrides.list();
      out.println(entries.isEmpty() ? "no live override (version " + overrides.current().version()
          + ")" : "version " + overrides.current().version() + ":");
      entries.forEach(entry -> out.println("  " + entry.label() + ": " + text(entry.limits())
          + " (by " + entry.by() + ", " + entry.at() + ")"));
      return OK;
    }
    if (noun.equals("audit")) {
      expect(words, 1);
      overrides.audit(args.last).forEach(change -> out.println(describe(change)));
      return OK;
    }
    if (words.size() < 2) {
      throw new IllegalArgumentException(noun + " takes set or remove");
    }
    String verb = words.get(1);
    if (noun.equals("mode") && verb.equals("set")) {
      // mode set canary --canary-percent 25: the mode is a word, its share a key
      if (words.size() != 3) {
        throw new IllegalArgumentException("mode set takes one mode: enforce, shadow, advisory,"
            + " canary or off");
      }
      args.limits.put("mode", words.get(2));
      words = words.subList(0, 2);
    }
    OverrideTarget target = target(noun, words.subList(2, words.size()));
    switch (verb) {
      case "set" -> {
        OverrideChange change = overrides.set(target, args.limits, args.by);
        out.println(describe(change));
        out.println("in force on every instance within " + Overrides.POLL.toSeconds() + " s");
      }
      case "remove" -> {
        if (!args.limits.isEmpty()) {
          throw new IllegalArgumentException("remove takes no limit keys");
        }
        Optional<OverrideChange> change = overrides.remove(target, args.by);
        out.println(change.map(AdminCommand::describe)
            .orElse(target.label() + " had no live override: nothing changed"));
      }
      default -> throw new IllegalArgumentException(noun + " takes set or remove, not " + verb);
    }
    return OK;
  }

  private static OverrideTarget target(String noun, List<String> names) {
    return switch (noun) {
      case "tenants", "tenant" -> OverrideTarget.tenant(one(noun, names));
      case "providers", "provider" -> OverrideTarget.provider(one(noun, names));
      case "mode" -> {
        if (!names.isEmpty()) {
          throw new IllegalArgumentException("mode remove takes no more words");
        }
        yield OverrideTarget.mode();
      }
      case "models", "model" -> {
        if (names.size() != 2) {
          throw new IllegalArgumentException("models takes PROVIDER MODEL");
        }
        yield OverrideTarget.model(names.get(0), names.get(1));
      }
      default -> throw new IllegalArgumentException("unknown command " + noun);
    };
  }

  private static String one(String noun, List<String> names) {
    if (names.size() != 1) {
      throw new IllegalArgumentException(noun + " takes one name");
    }
    return names.get(0);
  }

  private static void expect(List<String> words, int count) {
    if (words.size() != count) {
      throw new IllegalArgumentException(words.get(0) + " takes no more words");
    }
  }

  /** {@code version 3, 2026-12-03T10:00:00Z, alice: set tenant acme: requests-per-minute=600 (was ...)}. */
  static String describe(OverrideChange change) {
    String after = change.action().equals("set") ? ": " + text(change.after()) : "";
    String before = change.before().isEmpty() ? "" : " (was " + text(change.before()) + ")";
    return "version " + change.version() + ", " + change.at() + ", " + change.by() + ": "
        + change.action() + " " + change.label() + after + before;
  }

  private static String text(Map<String, String> limits) {
    return limits.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
        .collect(Collectors.joining(", "));
  }

  private static TollgateConfig load(Optional<String> given, Map<String, String> environment) {
    String location = given
        .or(() -> Optional.ofNullable(System.getProperty("tollgate.config")))
        .or(() -> Optional.ofNullable(environment.get(TollgateConfigLoader.LOCATION_VARIABLE)))
        .orElseThrow(() -> new ConfigException("--config", "is needed: the configuration of the"
            + " fleet, for its Redis (or -Dtollgate.config, or "
            + TollgateConfigLoader.LOCATION_VARIABLE + ")"));
    return TollgateConfigLoader.builder().environment(environment).build().load(location);
  }

  /** The words of the command and its options. */
  private record Arguments(List<String> command, Optional<String> config, Map<String, String> limits,
      String by, int last) {

    static Arguments parse(List<String> args) {
      List<String> command = new ArrayList<>();
      Map<String, String> limits = new LinkedHashMap<>();
      String config = null;
      String by = null;
      int last = 20;
      for (int i = 0; i < args.size(); i++) {
        String arg = args.get(i);
        if (!arg.startsWith("--")) {
          command.add(arg);
          continue;
        }
        String name = arg.substring(2);
        String value;
        int equals = name.indexOf('=');
        if (equals >= 0) {
          value = name.substring(equals + 1);
          name = name.substring(0, equals);
        } else if (i + 1 < args.size()) {
          value = args.get(++i);
        } else {
          throw new IllegalArgumentException(arg + " needs a value");
        }
        switch (name) {
          case "config" -> config = value;
          case "by" -> by = value;
          case "last" -> last = positive(arg, value);
          default -> limits.put(name, value);
        }
      }
      return new Arguments(command, Optional.ofNullable(config), limits,
          by != null ? by : defaultAuthor(), last);
    }

    private static int positive(String arg, String value) {
      try {
        int number = Integer.parseInt(value);
        if (number > 0) {
          return number;
        }
      } catch (NumberFormatException e) {
        // named below
      }
      throw new IllegalArgumentException(arg + " takes a whole number > 0, was " + value);
    }

    private static String defaultAuthor() {
      String user = System.getProperty("user.name", "unknown");
      try {
        return user + "@" + InetAddress.getLocalHost().getHostName();
      } catch (UnknownHostException e) {
        return user;
      }
    }
  }
}
