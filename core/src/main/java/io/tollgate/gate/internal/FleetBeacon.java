package io.tollgate.gate.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.tollgate.gate.Fleet;
import io.tollgate.redis.LuaScript;
import io.tollgate.redis.RedisScripts;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * This instance's heartbeat in Redis ({@code lua/fleet.lua}), every {@link #INTERVAL} on a daemon
 * thread of its own, and the fleet it reads back with each beat. Without Redis, or while Redis
 * does not answer, the fleet it knows is this instance alone (with what it last read of the
 * others, until their beats would have expired).
 */
public final class FleetBeacon implements Fleet, AutoCloseable {

  public static final Duration INTERVAL = Duration.ofSeconds(5);
  /** A beat lasts three intervals: one lost beat does not drop an instance. */
  public static final Duration BEAT_TTL = INTERVAL.multipliedBy(3);
  static final Duration FIRST_BEAT = Duration.ofSeconds(1);
  /** The most instances read back. */
  static final int MAX_INSTANCES = 500;
  static final List<byte[]> KEYS = List.of(bytes("tg:{fleet}:seen"), bytes("tg:{fleet}:info"));

  private static final System.Logger LOG = System.getLogger(FleetBeacon.class.getName());

  private final RedisScripts redis;
  private final Clock clock;
  private final BooleanSupplier degraded;
  private final String id = UUID.randomUUID().toString();
  private final String frontEnd;
  private final String version;
  private final Instant started;
  /** Looked up on first use, off the start-up path: a host name can take a DNS round trip. */
  private volatile String name;
  private volatile List<Instance> others = List.of();
  private volatile Instant othersValidUntil = Instant.EPOCH;
  private ScheduledExecutorService beats;

  /**
   * @param redis where to beat, or null: this instance alone
   * @param frontEnd what this instance runs Tollgate as: {@code agent}, {@code starter}, ...
   * @param degraded whether its limiter decides without Redis now
   */
  public FleetBeacon(RedisScripts redis, String frontEnd, String version, BooleanSupplier degraded,
      Clock clock) {
    this.redis = redis;
    this.clock = Objects.requireNonNull(clock, "clock");
    this.degraded = Objects.requireNonNull(degraded, "degraded");
    this.frontEnd = Objects.requireNonNull(frontEnd, "frontEnd");
    this.version = Objects.requireNonNull(version, "version");
    this.started = clock.instant();
  }

  /** What only a beat needs, loaded with the first one: not on the path of a gate's start. */
  private static final class Beats {
    static final LuaScript SCRIPT = LuaScript.load("fleet");
    // jackson-core alone: the agent's jar carries no databind
    static final JsonFactory JSON = new JsonFactory();
  }

  /**
   * Beats every {@link #INTERVAL}, the first a second from now: after the busiest moment of the
   * app's start. Does nothing without Redis.
   */
  public synchronized FleetBeacon start() {
    if (redis != null && beats == null) {
      beats = Executors.newSingleThreadScheduledExecutor(task -> {
        Thread thread = new Thread(task, "tollgate-fleet");
        thread.setDaemon(true);
        return thread;
      });
      beats.scheduleWithFixedDelay(this::beatQuietly, FIRST_BEAT.toMillis(), INTERVAL.toMillis(),
          TimeUnit.MILLISECONDS);
    }
    return this;
  }

  @Override
  public List<Instance> instances() {
    Instant now = clock.instant();
    List<Instance> instances = new ArrayList<>();
    instances.add(new Instance(id, name(), frontEnd, version, degraded.getAsBoolean(), started, now,
        true));
    if (now.isBefore(othersValidUntil)) {
      instances.addAll(others);
    }
    return instances;
  }

  /** One beat: publishes this instance and reads the fleet back. */
  void beat() throws IOException {
    List<?> reply = (List<?>) redis.eval(Beats.SCRIPT, KEYS, List.of(bytes(id),
        describe(degraded.getAsBoolean()), bytes(Long.toString(BEAT_TTL.toMillis())),
        bytes(Integer.toString(MAX_INSTANCES))));
    List<Instance> read = new ArrayList<>();
    for (int i = 1; i + 2 < reply.size(); i += 3) {
      String instanceId = text(reply.get(i));
      if (instanceId.equals(id)) {
        continue;
      }
      read.add(instance(instanceId, (byte[]) reply.get(i + 1), (Long) reply.get(i + 2)));
    }
    others = List.copyOf(read);
    othersValidUntil = clock.instant().plus(BEAT_TTL);
  }

  /** This instance's beat: a flat JSON object. */
  private byte[] describe(boolean degradedNow) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (JsonGenerator g = Beats.JSON.createGenerator(out)) {
      g.writeStartObject();
      g.writeStringField("name", name());
      g.writeStringField("frontEnd", frontEnd);
      g.writeStringField("version", version);
      g.writeStringField("started", started.toString());
      g.writeBooleanField("degraded", degradedNow);
      g.writeEndObject();
    }
    return out.toByteArray();
  }

  /** The text and true/false fields of another instance's beat; what else it holds is skipped. */
  private static Map<String, Object> fields(byte[] json) throws IOException {
    Map<String, Object> fields = new LinkedHashMap<>();
    if (json.length == 0) {
      return fields;
    }
    try (JsonParser parser = Beats.JSON.createParser(json)) {
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        return fields;
      }
      while (parser.nextToken() == JsonToken.FIELD_NAME) {
        String name = parser.currentName();
        JsonToken value = parser.nextToken();
        if (value == JsonToken.VALUE_STRING) {
          fields.put(name, parser.getText());
        } else if (value == JsonToken.VALUE_TRUE || value == JsonToken.VALUE_FALSE) {
          fields.put(name, value == JsonToken.VALUE_TRUE);
        } else {
          parser.skipChildren();
        }
      }
    }
    return fields;
  }

  private static Instance instance(String id, byte[] json, long expiryMillis) throws IOException {
    Map<String, Object> fields = fields(json);
    String started = fields.get("started") instanceof String text ? text : null;
    return new Instance(id, string(fields.get("name")), string(fields.get("frontEnd")),
        string(fields.get("version")), Boolean.TRUE.equals(fields.get("degraded")),
        started == null ? null : Instant.parse(started),
        Instant.ofEpochMilli(expiryMillis).minus(BEAT_TTL), false);
  }

  private void beatQuietly() {
    try {
      beat();
    } catch (IOException | RuntimeException e) {
      // the limiter reports Redis's state; a lost beat only ages this instance on the page
      LOG.log(System.Logger.Level.DEBUG, "fleet heartbeat failed", e);
    }
  }

  @Override
  public synchronized void close() {
    if (beats != null) {
      beats.shutdownNow();
      beats = null;
    }
  }

  private String name() {
    String known = name;
    if (known == null) {
      known = instanceName();
      name = known;
    }
    return known;
  }

  /** {@code OTEL_SERVICE_NAME} when set, else host name and process id. */
  private static String instanceName() {
    String service = System.getenv("OTEL_SERVICE_NAME");
    String process = host() + ":" + ProcessHandle.current().pid();
    return service == null || service.isBlank() ? process : service + "@" + process;
  }

  private static String host() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (IOException e) {
      return ManagementFactory.getRuntimeMXBean().getName();
    }
  }

  private static String string(Object value) {
    return value instanceof String text ? text : null;
  }

  private static String text(Object value) {
    return value instanceof byte[] raw ? new String(raw, StandardCharsets.UTF_8) : String.valueOf(value);
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
