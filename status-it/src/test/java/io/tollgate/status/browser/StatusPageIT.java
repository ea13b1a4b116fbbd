package io.tollgate.status.browser;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.tollgate.testkit.llm.Fault;
import io.tollgate.testkit.llm.MockLlmServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;

/** The status page in Chromium, following what a gate does as it happens. */
class StatusPageIT {

  /** Where {@code -Dtollgate.screenshot} puts the page for the docs. */
  private static final String SCREENSHOT = "docs/images/status-page.png";

  private static Browser browser;
  private final List<AutoCloseable> started = new ArrayList<>();

  /**
   * The browser is started by the first test, not in {@code @BeforeAll}: a class-level assumption
   * is reported as no test at all, while each test skipped by it shows in the report with the reason.
   */
  @BeforeEach
  void startBrowserOnce() throws IOException {
    if (browser == null) {
      browser = Browser.start();
    }
    browser.consoleErrors(); // what earlier tests left in the console is theirs
  }

  @AfterAll
  static void stopBrowser() {
    if (browser != null) {
      browser.close();
      browser = null;
    }
  }

  @AfterEach
  void stop() throws Exception {
    for (int i = started.size() - 1; i >= 0; i--) {
      started.get(i).close();
    }
  }

  @Test
  void loadsAndFillsItsTablesWithNoConsoleError() {
    MockLlmServer openai = provider();
    ServedGate served = serve("""
        tollgate:
          status: {port: 0}
          providers:
            openai:
              base-url: %s
        """.formatted(openai.baseUrl()));

    WebDriver page = open(served);

    // the inline script ran (its hash admitted) and rendered a report
    assertThat(text(page, "#mode")).isEqualTo("enforce");
    assertThat(text(page, "#limiter")).isEqualTo("in-memory");
    assertThat(breaker(page, "openai")).isEqualTo("closed");
    // the inline style applied (its hash admitted): the login section stays hidden
    assertThat(page.findElement(By.id("login")).isDisplayed()).isFalse();
    assertThat(browser.consoleErrors()).isEmpty();
  }

  @Test
  void aBreakerOpeningShowsWithinSeconds() throws Exception {
    MockLlmServer openai = provider();
    ServedGate served = serve("""
        tollgate:
          status: {port: 0}
          breaker: {failures: 2, window: 10s, open-for: 30s}
          providers:
            openai:
              base-url: %s
        """.formatted(openai.baseUrl()));
    WebDriver page = open(served);
    assertThat(breaker(page, "openai")).isEqualTo("closed");

    openai.script().always(Fault.status(503));
    assertThat(served.calls.call(openai.baseUrl())).isEqualTo(503);
    assertThat(served.calls.call(openai.baseUrl())).isEqualTo(503);

    browser.await("the breaker badge reads open", d -> breaker(d, "openai").equals("open"));
    assertThat(text(page, "#providers tr[data-provider='openai'] td:last-child"))
        .contains("closed → open");
    assertThat(browser.consoleErrors()).isEmpty();
  }

  @Test
  void aTenantsRemainingRequestsFallAsItCalls() throws Exception {
    MockLlmServer openai = provider();
    ServedGate served = serve("""
        tollgate:
          status: {port: 0}
          providers:
            openai:
              base-url: %s
          tenants:
            header: X-Tenant-Id
            limits:
              requests-per-minute: 5
        """.formatted(openai.baseUrl()));
    WebDriver page = open(served);

    assertThat(served.calls.callAs("acme-7", openai.baseUrl())).isEqualTo(200);
    // the page names a tenant by its hash, never its id: the API says which hash
    String hash = browser.await("the tenant in the status API", d -> firstTenant(served));
    assertThat(hash).isNotEqualTo("acme-7");
    browser.await("acme-7 has 4 requests left", d -> requestsLeft(d, hash).equals("4"));

    assertThat(served.calls.callAs("acme-7", openai.baseUrl())).isEqualTo(200);
    assertThat(served.calls.callAs("acme-7", openai.baseUrl())).isEqualTo(200);

    browser.await("acme-7 has 2 requests left", d -> requestsLeft(d, hash).equals("2"));
    assertThat(text(page, "#tenants")).doesNotContain("acme-7");
    assertThat(browser.consoleErrors()).isEmpty();
  }

  /**
   * A breaker open, a fallback, refusals and two tenants on one page; with {@code
   * -Dtollgate.screenshot} the page is saved as the docs' picture of it.
   */
  @Test
  void aLivelyGateShowsEverythingAtOnce() throws Exception {
    MockLlmServer openai = provider();
    MockLlmServer backup = provider();
    ServedGate served = serve("""
        tollgate:
          status: {port: 0}
          breaker: {failures: 2, window: 10s, open-for: 30s}
          providers:
            openai:
              base-url: %s
              fallbacks: [backup]
              limits:
                requests-per-minute: 500
                tokens-per-minute: 200000
            backup:
              base-url: %s
              api-key: sk-backup
              limits:
                requests-per-minute: 100
          tenants:
            header: X-Tenant-Id
            limits:
              requests-per-minute: 5
        """.formatted(openai.baseUrl(), backup.baseUrl()));
    WebDriver page = open(served);

    openai.script().always(Fault.status(503));
    for (int i = 0; i < 7; i++) {
      served.calls.callAs("acme-7", openai.baseUrl());
    }
    served.calls.callAs("globex", openai.baseUrl());
    served.calls.callAs("globex", openai.baseUrl());

    browser.await("the breaker badge reads open", d -> breaker(d, "openai").equals("open"));
    browser.await("two tenants shown",
        d -> d.findElements(By.cssSelector("#tenants tr[data-tenant]")).size() == 2);
    browser.await("a fallback and a refusal among the decisions",
        d -> !d.findElements(By.cssSelector("#decisions .badge.fallback")).isEmpty()
            && !d.findElements(By.cssSelector("#decisions .badge.denied")).isEmpty());
    assertThat(browser.consoleErrors()).isEmpty();

    if (System.getProperty("tollgate.screenshot") != null) {
      Path png = Path.of(System.getProperty("tollgate.project.root", ".")).resolve(SCREENSHOT);
      Files.createDirectories(png.getParent());
      Files.write(png, browser.screenshot());
    }
  }

  private MockLlmServer provider() {
    MockLlmServer server = MockLlmServer.start();
    started.add(server);
    return server;
  }

  private ServedGate serve(String yaml) {
    ServedGate served = ServedGate.of(yaml);
    started.add(served);
    return served;
  }

  /** Opens the page and waits for its first report. */
  private static WebDriver open(ServedGate served) {
    WebDriver driver = browser.driver();
    driver.get(served.page());
    browser.await("the page shows a report",
        d -> !d.findElements(By.cssSelector("#providers tr[data-provider]")).isEmpty());
    return driver;
  }

  private static String breaker(WebDriver page, String provider) {
    return text(page, "#providers tr[data-provider='" + provider + "'] td.breaker .badge");
  }

  /** The tenant's requests-per-minute left, as shown; empty while the page does not show it. */
  private static String requestsLeft(WebDriver page, String tenant) {
    return text(page, "#tenants tr[data-tenant='" + tenant
        + "'] td.outbound .bucket[data-limit='requests-per-minute'] .remaining");
  }

  /**
   * The text of the element {@code selector} finds, empty when none: read in one script, since the
   * page replaces its rows on every poll and an element found a moment earlier may be gone.
   */
  private static String text(WebDriver page, String selector) {
    Object text = ((JavascriptExecutor) page).executeScript(
        "var e = document.querySelector(arguments[0]); return e ? e.textContent : '';", selector);
    return (String) text;
  }

  private static String firstTenant(ServedGate served) {
    try {
      JsonNode tenants = served.report().get("tenants");
      return tenants.isEmpty() ? null : tenants.get(0).get("name").asText();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
