package io.tollgate.servlet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.config.ConfigException;
import jakarta.servlet.FilterConfig;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What web.xml may say to the filter, and what {@code init} answers when it is wrong. */
class InitParamsTest {

  private static final String GOOD = """
      tollgate:
        tenants:
          header: X-Tenant-Id
          limits:
            requests-per-minute: 60
      """;

  @TempDir
  Path dir;

  private String file(String yaml) throws Exception {
    Path file = dir.resolve("tollgate-" + yaml.hashCode() + ".yaml");
    Files.writeString(file, yaml);
    return file.toString();
  }

  private static void init(Map<String, String> params) throws ServletException {
    TollgateFilter filter = new TollgateFilter();
    try {
      filter.init(config(params));
    } finally {
      filter.destroy();
    }
  }

  private static FilterConfig config(Map<String, String> params) {
    ServletContext context = (ServletContext) Proxy.newProxyInstance(InitParamsTest.class.getClassLoader(),
        new Class<?>[] {ServletContext.class}, (proxy, method, args) -> switch (method.getName()) {
          case "getClassLoader" -> InitParamsTest.class.getClassLoader();
          default -> throw new UnsupportedOperationException(method.getName());
        });
    return new FilterConfig() {
      @Override
      public String getFilterName() {
        return "tollgate";
      }

      @Override
      public ServletContext getServletContext() {
        return context;
      }

      @Override
      public String getInitParameter(String name) {
        return params.get(name);
      }

      @Override
      public Enumeration<String> getInitParameterNames() {
        return Collections.enumeration(params.keySet());
      }
    };
  }

  private static Map<String, String> params(String... namesAndValues) {
    Map<String, String> params = new LinkedHashMap<>();
    for (int i = 0; i < namesAndValues.length; i += 2) {
      params.put(namesAndValues[i], namesAndValues[i + 1]);
    }
    return params;
  }

  @Test
  void everyInitParamCanBeGiven() throws Exception {
    init(params("config", file(GOOD), "missing-tenant", "default:guests", "tenant-from", "principal",
        "max-buffered-body", "65536", "api", "anthropic"));
    init(params("config", file(GOOD), "max-buffered-body", "512KB"));
  }

  @Test
  void theConfigurationMayComeFromTheClassPath() throws Exception {
    init(params("config", "classpath:in-code.yaml"));
  }

  @Test
  void aBadValueIsRefusedNamingItsKey() throws Exception {
    String location = file("""
        tollgate:
          tenants:
            header: X-Tenant-Id
            limits:
              tokens-per-minute: -5
        """);

    assertThatThrownBy(() -> init(params("config", location)))
        .isInstanceOf(ServletException.class)
        .hasMessage("tollgate.tenants.limits.tokens-per-minute must be > 0, was -5")
        .cause().isInstanceOf(ConfigException.class);
  }

  @Test
  void aConfigurationWithoutTenantsIsRefused() throws Exception {
    String location = file("tollgate:\n  mode: enforce\n");

    assertThatThrownBy(() -> init(params("config", location))).hasMessage("tollgate.tenants is required by the"
        + " servlet filter: it says who each request is charged to and what it may spend");
  }

  @Test
  void modeOffNeedsNoTenants() throws Exception {
    init(params("config", file("tollgate:\n  mode: off\n")));
  }

  @Test
  void aMissingFileIsNamed() {
    String location = dir.resolve("nope.yaml").toString();

    assertThatThrownBy(() -> init(params("config", location))).hasMessage(location + " does not exist");
    assertThatThrownBy(() -> init(params("config", "classpath:nope.yaml")))
        .hasMessage("classpath:nope.yaml is not on the class path");
  }

  @Test
  void theConfigParamIsRequired() {
    assertThatThrownBy(() -> init(params()))
        .isInstanceOf(ServletException.class)
        .hasMessage("init-param config is required: a file path or classpath:tollgate.yaml");
  }

  @Test
  void anUnknownInitParamIsRefusedRatherThanIgnored() throws Exception {
    String location = file(GOOD);

    assertThatThrownBy(() -> init(params("config", location, "missing_tenant", "reject")))
        .hasMessage("init-param missing_tenant is not known to TollgateFilter;"
            + " known: [api, config, max-buffered-body, missing-tenant, tenant-from]");
  }

  @Test
  void badInitParamValuesAreNamed() throws Exception {
    String location = file(GOOD);

    assertThat(problem(params("config", location, "missing-tenant", "allow")))
        .isEqualTo("init-param missing-tenant must be reject or default:<tenant id>, was allow");
    assertThat(problem(params("config", location, "missing-tenant", "default:")))
        .isEqualTo("init-param missing-tenant must be reject or default:<tenant id>, was default:");
    assertThat(problem(params("config", location, "tenant-from", "header")))
        .isEqualTo("init-param tenant-from must be config or principal, was header");
    assertThat(problem(params("config", location, "max-buffered-body", "1 MB")))
        .isEqualTo("init-param max-buffered-body must be a size from 0 to 64MB (1048576, 512KB, 1MB), was 1 MB");
    assertThat(problem(params("config", location, "max-buffered-body", "-1")))
        .isEqualTo("init-param max-buffered-body must be a size from 0 to 64MB (1048576, 512KB, 1MB), was -1");
    assertThat(problem(params("config", location, "max-buffered-body", "65MB")))
        .isEqualTo("init-param max-buffered-body must be a size from 0 to 64MB (1048576, 512KB, 1MB), was 65MB");
    assertThat(problem(params("config", location, "api", "gemini")))
        .isEqualTo("init-param api must be one of openai, azure-openai, anthropic, was gemini");
  }

  private static String problem(Map<String, String> params) {
    try {
      init(params);
      return "(accepted)";
    } catch (ServletException e) {
      return e.getMessage();
    }
  }
}
