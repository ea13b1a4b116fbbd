package io.tollgate.config;

/**
 * A configuration Tollgate cannot run with. The message starts with the full key
 * ({@code tollgate.providers.openai.limits.tokens-per-minute must be > 0, was -5}), or with the
 * environment variable or file at fault, so that the fix is obvious from the log line alone.
 * Secret values (API keys, Redis passwords) are never repeated in a message.
 *
 * <p>Builders of nested parts ({@link LimitsConfig}, {@link ProviderConfig}, ...) do not know where
 * they sit in the tree, so they name keys relative to themselves ({@code tokens-per-minute}); the
 * loader places such an error under its section with {@link #under(String)}.
 */
public final class ConfigException extends IllegalArgumentException {

  private static final long serialVersionUID = 1L;

  private final String key;
  private final String problem;

  /**
   * @param key the key at fault, as full as the thrower knows it
   * @param problem what is wrong, continuing the sentence the key starts: {@code must be > 0, was -5}
   */
  public ConfigException(String key, String problem) {
    this(key, problem, null);
  }

  /** As {@link #ConfigException(String, String)}, keeping what caused it. */
  public ConfigException(String key, String problem, Throwable cause) {
    super(key + " " + problem, cause);
    this.key = key;
    this.problem = problem;
  }

  /** The key (or environment variable, or file) at fault. */
  public String key() {
    return key;
  }

  /** The message without its key. */
  public String problem() {
    return problem;
  }

  /** This error with its key placed under {@code parent}: {@code limits.tokens-per-day} → {@code tollgate.tenants.limits.tokens-per-day}. */
  public ConfigException under(String parent) {
    ConfigException moved = new ConfigException(parent + "." + key, problem, getCause());
    moved.setStackTrace(getStackTrace());
    return moved;
  }

  /** A value as messages show it: an empty one as {@code ""} so that it is not mistaken for a missing word. */
  static String shown(Object value) {
    String text = String.valueOf(value);
    return text.isEmpty() ? "\"\"" : text;
  }
}
