package io.tollgate.agent;

import io.tollgate.config.TollgateConfigLoader;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * Where the agent's configuration is, first found wins: the agent argument {@code config=}, the
 * system property {@code tollgate.config}, the environment variable {@code TOLLGATE_CONFIG}.
 */
final class ConfigLocation {

  /** The system property naming the configuration. */
  static final String PROPERTY = "tollgate.config";

  private ConfigLocation() {}

  static Optional<String> resolve(AgentArguments arguments, Properties properties,
      Map<String, String> environment) {
    if (arguments.config().isPresent()) {
      return arguments.config();
    }
    String property = properties.getProperty(PROPERTY);
    if (property != null && !property.isBlank()) {
      return Optional.of(property.trim());
    }
    String variable = environment.get(TollgateConfigLoader.LOCATION_VARIABLE);
    if (variable != null && !variable.isBlank()) {
      return Optional.of(variable.trim());
    }
    return Optional.empty();
  }
}
