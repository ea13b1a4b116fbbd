package io.tollgate.status.browser;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.testkit.llm.MockLlmServer;
import java.io.IOException;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;

/** A status page whose data needs its token: refused without it, shown once it is given. */
class StatusPageTokenIT {

  private static final String TOKEN = "tollgate-status-token-0123456789";
  private static final String WRONG_TOKEN = "tollgate-status-token-9876543210";

  private static Browser browser;
  private MockLlmServer openai;
  private ServedGate served;

  /**
   * The browser is started by the first test, not in {@code @BeforeAll}: a class-level assumption
   * is reported as no test at all, while each test skipped by it shows in the report with the reason.
   */
  @BeforeEach
  void start() throws IOException {
    if (browser == null) {
      browser = Browser.start();
    }
    browser.consoleErrors(); // what earlier tests left in the console is theirs
    openai = MockLlmServer.start();
    served = ServedGate.of("""
        tollgate:
          status:
            port: 0
            bind: 127.0.0.1
            token: %s
          providers:
            openai:
              base-url: %s
        """.formatted(TOKEN, openai.baseUrl()));
  }

  @AfterEach
  void stop() {
    if (served != null) {
      served.close();
    }
    if (openai != null) {
      openai.close();
    }
  }

  @AfterAll
  static void stopBrowser() {
    if (browser != null) {
      browser.close();
      browser = null;
    }
  }

  @Test
  void theDataIsRefusedWithoutTheTokenOrWithAnother() throws Exception {
    HttpResponse<String> without = served.data(null);
    HttpResponse<String> wrong = served.data("Bearer " + WRONG_TOKEN);
    HttpResponse<String> right = served.data("Bearer " + TOKEN);

    assertThat(without.statusCode()).isEqualTo(401);
    assertThat(without.body()).doesNotContain("openai");
    assertThat(wrong.statusCode()).isEqualTo(401);
    assertThat(wrong.body()).doesNotContain("openai");
    assertThat(right.statusCode()).isEqualTo(200);
    assertThat(right.body()).contains("\"name\":\"openai\"");
  }

  @Test
  void thePageAsksForTheTokenThenShowsTheData() {
    WebDriver page = browser.driver();
    page.get(served.page());
    browser.await("the token form shows", d -> d.findElement(By.id("login")).isDisplayed());
    assertThat(page.findElements(By.cssSelector("#providers tr[data-provider]"))).isEmpty();

    page.findElement(By.id("token")).sendKeys(TOKEN);
    page.findElement(By.cssSelector("#login-form button[type=submit]")).click();

    browser.await("the providers show",
        d -> !d.findElements(By.cssSelector("#providers tr[data-provider='openai']")).isEmpty());
    browser.await("the token form hides", d -> !d.findElement(By.id("login")).isDisplayed());
    assertThat(page.getCurrentUrl()).isEqualTo(served.page());
    // the refused fetches are the console's only errors: no CSP violation among them
    assertThat(browser.consoleErrors()).isNotEmpty().allSatisfy(error ->
        assertThat(error).contains("?view=status").contains("status of 401"));
  }

  @Test
  void aTokenInTheFragmentIsUsedAndLeavesTheAddressBar() {
    WebDriver page = browser.driver();
    page.get(served.page() + "#token=" + TOKEN);

    browser.await("the providers show",
        d -> !d.findElements(By.cssSelector("#providers tr[data-provider='openai']")).isEmpty());
    assertThat(page.getCurrentUrl()).isEqualTo(served.page());
    assertThat(page.findElement(By.id("login")).isDisplayed()).isFalse();
    assertThat(browser.consoleErrors()).isEmpty();
  }
}
