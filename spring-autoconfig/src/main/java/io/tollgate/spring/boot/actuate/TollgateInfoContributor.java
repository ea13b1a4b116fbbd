package io.tollgate.spring.boot.actuate;

import io.tollgate.gate.Gate;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import org.springframework.boot.actuate.info.Info;
import org.springframework.boot.actuate.info.InfoContributor;

/**
 * Tollgate's entry in {@code /actuator/info}: the version the app runs, its mode and where its
 * limits are kept, so that the instances of a fleet can be told apart by what they run. Nothing
 * secret: no provider, key or tenant.
 */
public final class TollgateInfoContributor implements InfoContributor {

  private static final String VERSION = readVersion();

  private final Gate gate;

  public TollgateInfoContributor(Gate gate) {
    this.gate = gate;
  }

  @Override
  public void contribute(Info.Builder builder) {
    Map<String, Object> tollgate = new LinkedHashMap<>();
    tollgate.put("version", VERSION);
    tollgate.put("mode", gate.config().mode().name().toLowerCase(Locale.ROOT));
    tollgate.put("limiter", gate.config().redis().isPresent() ? "redis" : "in-memory");
    builder.withDetail("tollgate", tollgate);
  }

  /** The version the build wrote beside this class (version.properties). */
  private static String readVersion() {
    try (InputStream in = TollgateInfoContributor.class.getResourceAsStream("version.properties")) {
      if (in == null) {
        throw new IllegalStateException("version.properties is missing beside "
            + TollgateInfoContributor.class.getName() + ": the jar was not built by Maven");
      }
      Properties properties = new Properties();
      properties.load(in);
      return properties.getProperty("version");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
