package io.tollgate.spring.boot;

import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.ConfigurationPropertyState;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Matches when a section of the tree has any key: the core treats an absent {@code redis} as "in
 * memory" and an absent {@code tenants} as "nobody is charged", whatever defaults the other keys
 * of the section would have.
 */
abstract class ConfiguredSection extends SpringBootCondition {

  private final ConfigurationPropertyName section;

  ConfiguredSection(String section) {
    this.section = ConfigurationPropertyName.of(section);
  }

  @Override
  public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
    for (ConfigurationPropertySource source : ConfigurationPropertySources.get(context.getEnvironment())) {
      ConfigurationProperty direct = source.getConfigurationProperty(section);
      if (direct != null || source.containsDescendantOf(section) == ConfigurationPropertyState.PRESENT) {
        return ConditionOutcome.match(section + " is configured");
      }
    }
    return ConditionOutcome.noMatch(section + " is not configured");
  }

  /** {@code tollgate.redis}: the shared limiter. */
  static final class Redis extends ConfiguredSection {
    Redis() {
      super("tollgate.redis");
    }
  }

  /** {@code tollgate.tenants}: inbound and per-tenant limits. */
  static final class Tenants extends ConfiguredSection {
    Tenants() {
      super("tollgate.tenants");
    }
  }
}
