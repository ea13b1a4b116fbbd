package io.tollgate.config;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The {@code tollgate.priority} section: priority classes, each allowed a share of every limit, so
 * that under saturation the lower classes are refused first while the higher ones still find room
 * (docs/limiter.md, "Priority classes"). A call's class is named by {@code header} (the inbound
 * request's, or the outbound call's own), else its tenant's ({@code tenants}), else {@code default};
 * a name that is no class counts as {@code default}.
 */
public final class PriorityConfig {

  /** The classes when the section names none. */
  public static final Map<String, Double> DEFAULT_CLASSES = defaultClasses();
  public static final String DEFAULT_CLASS = "default";

  private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9_-]{0,31}");

  private final Optional<String> header;
  private final String defaultClass;
  private final Map<String, Double> classes;
  private final Map<String, String> tenants;

  private PriorityConfig(Builder b) {
    this.header = Optional.ofNullable(b.header);
    this.classes = Collections.unmodifiableMap(new LinkedHashMap<>(
        b.classes.isEmpty() ? DEFAULT_CLASSES : b.classes));
    this.defaultClass = b.defaultClass;
    if (!classes.containsKey(defaultClass)) {
      throw new ConfigException("default", "must name one of the classes " + classes.keySet()
          + ", was " + ConfigException.shown(defaultClass));
    }
    b.tenants.forEach((tenant, name) -> {
      if (!classes.containsKey(name)) {
        throw new ConfigException("tenants." + tenant, "must name one of the classes "
            + classes.keySet() + ", was " + ConfigException.shown(name));
      }
    });
    this.tenants = Collections.unmodifiableMap(new LinkedHashMap<>(b.tenants));
  }

  private static Map<String, Double> defaultClasses() {
    Map<String, Double> classes = new LinkedHashMap<>();
    classes.put("critical", 1.0);
    classes.put(DEFAULT_CLASS, 0.9);
    classes.put("batch", 0.7);
    return Collections.unmodifiableMap(classes);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** {@code header}: the header that names a request's class; empty: classes come from tenants. */
  public Optional<String> header() {
    return header;
  }

  /** {@code default}: the class of a call that names none, or names no class. */
  public String defaultClass() {
    return defaultClass;
  }

  /** {@code classes}: class → the share of every limit it may use (0 < share ≤ 1). */
  public Map<String, Double> classes() {
    return classes;
  }

  /** {@code tenants}: tenant id → its class, when its requests name none. */
  public Map<String, String> tenants() {
    return tenants;
  }

  /**
   * The class of a call: {@code named} (a header's value) when it is a class, else {@code
   * tenant}'s, else the default.
   */
  public String classOf(Optional<String> named, Optional<String> tenant) {
    if (named.isPresent()) {
      String name = named.get().strip().toLowerCase(java.util.Locale.ROOT);
      if (classes.containsKey(name)) {
        return name;
      }
    }
    return tenant.map(tenants::get).orElse(defaultClass);
  }

  /** The share of every limit {@code className} may use. */
  public double share(String className) {
    return classes.getOrDefault(className, classes.get(defaultClass));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof PriorityConfig other && header.equals(other.header)
        && defaultClass.equals(other.defaultClass) && classes.equals(other.classes)
        && tenants.equals(other.tenants);
  }

  @Override
  public int hashCode() {
    return Objects.hash(header, defaultClass, classes, tenants);
  }

  @Override
  public String toString() {
    return "PriorityConfig{" + header.map(h -> "header=" + h + ", ").orElse("")
        + "default=" + defaultClass + ", classes=" + classes
        + (tenants.isEmpty() ? "" : ", tenants=" + tenants) + "}";
  }

  /** Collects the section; each setter checks its value at once. */
  public static final class Builder {
    private String header;
    private String defaultClass = DEFAULT_CLASS;
    private final Map<String, Double> classes = new LinkedHashMap<>();
    private final Map<String, String> tenants = new LinkedHashMap<>();

    private Builder() {}

    public Builder header(String header) {
      this.header = Values.headerName("header", header);
      return this;
    }

    public Builder defaultClass(String name) {
      this.defaultClass = Objects.requireNonNull(name, "name");
      return this;
    }

    /** A class and the share of every limit it may use, more than 0 and at most 1. */
    public Builder priorityClass(String name, double share) {
      if (!NAME.matcher(name).matches()) {
        throw new ConfigException("classes." + name, "is not a class name: lower-case letters,"
            + " digits, _ and -, at most 32");
      }
      if (!(share > 0 && share <= 1)) {
        throw new ConfigException("classes." + name, "must be a share more than 0 and at most 1,"
            + " was " + share);
      }
      classes.put(name, share);
      return this;
    }

    public Builder tenant(String tenant, String className) {
      tenants.put(tenant, className);
      return this;
    }

    public PriorityConfig build() {
      return new PriorityConfig(this);
    }
  }
}
