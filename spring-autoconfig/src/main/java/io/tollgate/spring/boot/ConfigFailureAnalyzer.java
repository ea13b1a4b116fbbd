package io.tollgate.spring.boot;

import io.tollgate.config.ConfigException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Turns a configuration the core refused into Spring Boot's start-up report: the property, what
 * is wrong with it, and where to fix it, instead of a stack of bean-creation exceptions.
 */
class ConfigFailureAnalyzer extends AbstractFailureAnalyzer<ConfigException> {

  @Override
  protected FailureAnalysis analyze(Throwable rootFailure, ConfigException cause) {
    return new FailureAnalysis(
        "Tollgate cannot run with this configuration: " + cause.getMessage(),
        "Fix the property " + cause.key() + " (in application.yml / application.properties, "
            + "or its environment variable), or set tollgate.enabled=false to start without Tollgate.",
        cause);
  }
}
