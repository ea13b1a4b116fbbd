package io.tollgate.status;

import io.tollgate.overrides.OverrideChange;
import io.tollgate.overrides.OverrideEntry;
import io.tollgate.overrides.OverrideRequest;
import io.tollgate.overrides.Overrides;
import io.tollgate.redis.RedisFailures;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The live overrides over HTTP, as the status page's API ({@code ?view=overrides}) and the
 * actuator answer: what is in force with the latest changes, and a change asked for. Who may ask
 * is the front end's to decide; what is answered, with which status, is decided here once.
 *
 * <p>Overrides are named by what the operator typed ({@code tenant acme}), never by the hash
 * they are kept under.
 */
public final class OverridesApi {

  /** How many of the latest changes a read shows. */
  public static final int AUDIT_SHOWN = 50;

  private OverridesApi() {}

  /** An answer: its HTTP status and JSON body. */
  public record Answer(int status, byte[] body) {}

  /**
   * {@code {"version": 3, "overrides": [{label, limits, by, at}], "audit": [{version, action,
   * label, by, at, before, after}]}}, the audit newest first; 503 when Redis does not answer.
   */
  public static Answer read(Overrides overrides) {
    return answer(() -> {
      List<Map<String, Object>> entries = overrides.list().stream().map(OverridesApi::entryJson).toList();
      Map<String, Object> body = new LinkedHashMap<>();
      body.put("version", overrides.current().version());
      body.put("overrides", entries);
      body.put("audit", overrides.audit(AUDIT_SHOWN).stream().map(OverridesApi::changeJson).toList());
      return new Answer(200, StatusJson.write(body));
    }, "the overrides could not be read");
  }

  /**
   * Applies {@code request}: 200 with the change made; 400 naming the field or configuration key
   * at fault; 404 when a removal finds no override; 503 when Redis does not answer.
   */
  public static Answer change(Overrides overrides, OverrideRequest request) {
    return answer(() -> {
      Optional<OverrideChange> change = request.applyTo(overrides);
      return change.map(made -> new Answer(200, StatusJson.write(changeJson(made))))
          .orElseGet(() -> error(404, request.target().label() + " has no live override:"
              + " nothing changed"));
    }, "nothing changed");
  }

  /** {@code {"error": message}}: a request refused before it reached the overrides. */
  public static Answer error(int status, String message) {
    return new Answer(status, StatusJson.write(Map.of("error", message)));
  }

  private static Answer answer(Supplier<Answer> work, String otherwise) {
    try {
      return work.get();
    } catch (IllegalArgumentException e) { // a ConfigException too: it names the key
      return error(400, e.getMessage());
    } catch (RuntimeException e) {
      if (!RedisFailures.isRedisFailure(e)) {
        throw e;
      }
      return error(503, "Redis did not answer (" + RedisFailures.describe(e) + "): " + otherwise);
    }
  }

  private static Map<String, Object> entryJson(OverrideEntry entry) {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("label", entry.label());
    json.put("limits", entry.limits());
    json.put("by", entry.by());
    json.put("at", entry.at());
    return json;
  }

  private static Map<String, Object> changeJson(OverrideChange change) {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("version", change.version());
    json.put("action", change.action());
    json.put("label", change.label());
    json.put("by", change.by());
    json.put("at", change.at());
    json.put("before", change.before());
    json.put("after", change.after());
    return json;
  }
}
