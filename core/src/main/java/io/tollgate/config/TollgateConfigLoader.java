package io.tollgate.config;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;

/**
 * Reads a {@link TollgateConfig} from YAML (a file, {@code classpath:name.yaml}, or text) or from
 * flat properties, then applies {@code TOLLGATE_...} environment overrides, and validates it.
 *
 * <pre>{@code
 * TollgateConfig config = TollgateConfigLoader.create().load("classpath:tollgate.yaml");
 * }</pre>
 *
 * <pre>{@code
 * TollgateConfig config = TollgateConfigLoader.builder()
 *     .environment(Map.of("OPENAI_API_KEY", "sk-test"))
 *     .build()
 *     .fromProperties(Map.of("tollgate.mode", "shadow"));
 * }</pre>
 *
 * See the package documentation for the rules: root, {@code ${NAME}}, overrides, unknown keys.
 */
public final class TollgateConfigLoader {

  /** A location starting with this is a class path resource: {@code classpath:tollgate.yaml}. */
  public static final String CLASSPATH_PREFIX = "classpath:";
  /** Environment variables starting with this override configuration keys. */
  public static final String ENVIRONMENT_PREFIX = "TOLLGATE_";
  /** Where the agent finds its file when given no other location; not an override. */
  public static final String LOCATION_VARIABLE = "TOLLGATE_CONFIG";

  private final Map<String, String> environment;
  private final boolean environmentOverrides;
  private final ClassLoader classLoader;

  private TollgateConfigLoader(Builder builder) {
    this.environment = builder.environment != null ? builder.environment : Map.copyOf(System.getenv());
    this.environmentOverrides = builder.environmentOverrides;
    this.classLoader = builder.classLoader != null ? builder.classLoader : defaultClassLoader();
  }

  private static ClassLoader defaultClassLoader() {
    ClassLoader context = Thread.currentThread().getContextClassLoader();
    return context != null ? context : TollgateConfigLoader.class.getClassLoader();
  }

  /** A loader over the process environment, with overrides, reading the class path of the current thread. */
  public static TollgateConfigLoader create() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * Reads YAML from {@code location}: {@code classpath:name.yaml} or a file path.
   *
   * @throws ConfigException naming the location when it cannot be read, or the key at fault
   */
  public TollgateConfig load(String location) {
    Objects.requireNonNull(location, "location");
    if (location.startsWith(CLASSPATH_PREFIX)) {
      return loadResource(location);
    }
    Path file;
    try {
      file = Path.of(location);
    } catch (InvalidPathException e) {
      throw new ConfigException(location, "is not a file path: " + e.getReason(), e);
    }
    return load(file);
  }

  /** Reads the YAML file {@code file}. */
  public TollgateConfig load(Path file) {
    String yaml;
    try {
      yaml = Files.readString(file, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw new ConfigException(file.toString(), "does not exist", e);
    } catch (IOException e) {
      throw new ConfigException(file.toString(), "cannot be read: " + e, e);
    }
    return fromYaml(yaml, file.toString());
  }

  private TollgateConfig loadResource(String location) {
    String name = location.substring(CLASSPATH_PREFIX.length());
    name = name.startsWith("/") ? name.substring(1) : name;
    try (InputStream in = classLoader.getResourceAsStream(name)) {
      if (in == null) {
        throw new ConfigException(location, "is not on the class path");
      }
      return fromYaml(new String(in.readAllBytes(), StandardCharsets.UTF_8), location);
    } catch (IOException e) {
      throw new ConfigException(location, "cannot be read: " + e, e);
    }
  }

  /** Reads YAML text whose root is {@code tollgate:}. */
  public TollgateConfig fromYaml(String yaml) {
    return fromYaml(yaml, "YAML text");
  }

  private TollgateConfig fromYaml(String yaml, String source) {
    ConfigNode.Mapping root = YamlTree.parse(yaml, source);
    if (root.entries().isEmpty()) {
      // Most likely the wrong file; defaults would hide that.
      throw new ConfigException(source, "is empty: the configuration sits under a " + TollgateConfig.ROOT + ": root");
    }
    return ConfigBinder.bind(root, environment());
  }

  /**
   * Reads flat properties, every name starting with {@code tollgate.}: what the Spring starter and
   * the servlet filter's init-params give. Lists as {@code fallbacks[0]=...} or comma-separated;
   * map keys with dots in brackets ({@code overrides[acme.com].requests-per-minute}). No property at
   * all is every default.
   */
  public TollgateConfig fromProperties(Map<String, String> properties) {
    return ConfigBinder.bind(PropertiesTree.parse(properties), environment());
  }

  private ConfigEnvironment environment() {
    return new ConfigEnvironment(environment, environmentOverrides);
  }

  /** Configures a loader. */
  public static final class Builder {
    private Map<String, String> environment;
    private boolean environmentOverrides = true;
    private ClassLoader classLoader;

    private Builder() {}

    /**
     * The variables for {@code ${NAME}} and {@code TOLLGATE_...} overrides; default the process
     * environment. Tests pass their own.
     */
    public Builder environment(Map<String, String> environment) {
      this.environment = Map.copyOf(environment);
      return this;
    }

    /**
     * Whether {@code TOLLGATE_...} variables override keys; default true. The Spring starter turns
     * it off: Spring already binds the environment its own way.
     */
    public Builder environmentOverrides(boolean environmentOverrides) {
      this.environmentOverrides = environmentOverrides;
      return this;
    }

    /** Where {@code classpath:} locations are looked up; default the current thread's context class loader. */
    public Builder classLoader(ClassLoader classLoader) {
      this.classLoader = Objects.requireNonNull(classLoader, "classLoader");
      return this;
    }

    public TollgateConfigLoader build() {
      return new TollgateConfigLoader(this);
    }
  }
}
