package io.tollgate.spring.boot.actuate;

import io.tollgate.gate.Gate;
import io.tollgate.gate.TollgateVersion;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.springframework.boot.actuate.info.Info;
import org.springframework.boot.actuate.info.InfoContributor;

/**
 * Tollgate's entry in {@code /actuator/info}: the version the app runs, its mode and where its
 * limits are kept, so that the instances of a fleet can be told apart by what they run. Nothing
 * secret: no provider, key or tenant.
 */
public final class TollgateInfoContributor implements InfoContributor {

  private final Gate gate;

  public TollgateInfoContributor(Gate gate) {
    this.gate = gate;
  }

  @Override
  public void contribute(Info.Builder builder) {
    Map<String, Object> tollgate = new LinkedHashMap<>();
    tollgate.put("version", TollgateVersion.current());
    tollgate.put("mode", gate.config().mode().name().toLowerCase(Locale.ROOT));
    tollgate.put("limiter", gate.config().redis().isPresent() ? "redis" : "in-memory");
    builder.withDetail("tollgate", tollgate);
  }
}
