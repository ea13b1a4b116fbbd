package io.tollgate.overrides;

import io.tollgate.redis.LuaScript;
import io.tollgate.redis.RedisScripts;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** {@link OverrideStore} in Redis, through {@code lua/overrides.lua}. */
final class RedisOverrideStore implements OverrideStore {

  static final List<byte[]> KEYS = List.of(bytes("tg:{live}:overrides"),
      bytes("tg:{live}:version"), bytes("tg:{live}:audit"), bytes("tg:{live}:epoch"));

  private static final System.Logger LOG = System.getLogger(RedisOverrideStore.class.getName());

  /** Loaded on first use: a gate whose overrides are never read does not load it. */
  private static final class Script {
    static final LuaScript OVERRIDES = LuaScript.load("overrides");
  }

  private final RedisScripts redis;

  RedisOverrideStore(RedisScripts redis) {
    this.redis = redis;
  }

  @Override
  public Stamp stamp() {
    List<?> reply = run("version");
    return new Stamp((Long) reply.get(0), (Long) reply.get(1));
  }

  @Override
  public LiveOverrides read() {
    List<?> reply = run("read");
    Map<String, OverrideEntry> entries = new LinkedHashMap<>();
    for (int i = 2; i + 1 < reply.size(); i += 2) {
      String field = text(reply.get(i));
      try {
        entries.put(field, OverrideJson.readEntry(field, (byte[]) reply.get(i + 1)));
      } catch (IllegalArgumentException e) {
        // written by something else than Tollgate: every other override still applies
        LOG.log(System.Logger.Level.WARNING, "ignoring the unreadable live override at " + field
            + ": " + e.getMessage());
      }
    }
    return LiveOverrides.of((Long) reply.get(0), (Long) reply.get(1), entries);
  }

  @Override
  public OverrideChange set(String field, String label, Map<String, String> limits, String by) {
    List<?> reply = run("set", field, OverrideJson.entry(label, limits, by), AUDIT_LENGTH);
    return OverrideJson.readChange((byte[]) reply.get(1));
  }

  @Override
  public Optional<OverrideChange> remove(String field, String label, String by) {
    List<?> reply = run("remove", field, OverrideJson.entry(label, Map.of(), by), AUDIT_LENGTH);
    return reply.size() < 2 ? Optional.empty()
        : Optional.of(OverrideJson.readChange((byte[]) reply.get(1)));
  }

  @Override
  public List<OverrideChange> audit(int max) {
    List<?> reply = run("audit", Integer.toString(Math.max(1, max)));
    List<OverrideChange> changes = new ArrayList<>(reply.size() - 1);
    for (int i = 1; i < reply.size(); i++) {
      changes.add(OverrideJson.readChange((byte[]) reply.get(i)));
    }
    return changes;
  }

  private List<?> run(Object... args) {
    List<byte[]> argv = new ArrayList<>(args.length);
    for (Object arg : args) {
      argv.add(arg instanceof byte[] raw ? raw : bytes(String.valueOf(arg)));
    }
    return (List<?>) redis.eval(Script.OVERRIDES, KEYS, argv);
  }

  private static String text(Object value) {
    return value instanceof byte[] raw ? new String(raw, StandardCharsets.UTF_8) : String.valueOf(value);
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
