package io.tollgate.status.browser;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;

/**
 * Whether the browser tests can run here. Without Chromium they must never pass unseen: CI sets
 * {@link #REQUIRED_ENV} and then a missing browser fails the build; elsewhere the tests are skipped
 * with the reason in the report, where a developer without Chromium sees it.
 */
final class BrowserRequirement {

  /** Set to {@code 1} where the browser tests must run (.ci/run sets it). */
  static final String REQUIRED_ENV = "REQUIRE_BROWSER_TESTS";
  static final String INSTALL = "apt-get install chromium chromium-driver";

  private BrowserRequirement() {}

  /**
   * Returns when both programs are there; otherwise fails when {@code required}, or aborts the
   * test (a JUnit assumption) when not.
   */
  static void check(Path chromium, Path chromedriver, boolean required) {
    List<String> missing = new ArrayList<>();
    for (Path program : List.of(chromium, chromedriver)) {
      if (!Files.isExecutable(program)) {
        missing.add(program.toString());
      }
    }
    if (missing.isEmpty()) {
      return;
    }
    String why = "the status page's browser tests need Chromium and chromedriver, and "
        + String.join(" and ", missing) + (missing.size() == 1 ? " is" : " are")
        + " missing: " + INSTALL;
    if (required) {
      throw new IllegalStateException(why + " (" + REQUIRED_ENV + "=1 requires the browser tests)");
    }
    Assumptions.abort(why + "; set " + REQUIRED_ENV + "=1 to make this a failure");
  }

  /** True when the environment requires the browser tests to run. */
  static boolean required() {
    return "1".equals(System.getenv(REQUIRED_ENV));
  }
}
