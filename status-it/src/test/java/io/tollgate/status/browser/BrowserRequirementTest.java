package io.tollgate.status.browser;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.TestAbortedException;

/** A machine without Chromium: the browser tests fail where required, else are skipped, saying why. */
class BrowserRequirementTest {

  @TempDir
  Path nowhere;

  @Test
  void requiredAndMissingFailsNamingThePackages() {
    Path chromium = nowhere.resolve("chromium");

    assertThatThrownBy(() -> BrowserRequirement.check(chromium, Path.of("/bin/sh"), true))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("the status page's browser tests need Chromium and chromedriver, and "
            + chromium + " is missing: apt-get install chromium chromium-driver"
            + " (REQUIRE_BROWSER_TESTS=1 requires the browser tests)");
  }

  @Test
  void notRequiredAndMissingIsSkippedSayingWhy() {
    Path chromium = nowhere.resolve("chromium");
    Path chromedriver = nowhere.resolve("chromedriver");

    assertThatThrownBy(() -> BrowserRequirement.check(chromium, chromedriver, false))
        .isInstanceOf(TestAbortedException.class)
        .hasMessage("the status page's browser tests need Chromium and"
            + " chromedriver, and " + chromium + " and " + chromedriver + " are missing:"
            + " apt-get install chromium chromium-driver;"
            + " set REQUIRE_BROWSER_TESTS=1 to make this a failure");
  }

  @Test
  void bothPresentRuns() {
    assertThatCode(() -> BrowserRequirement.check(Path.of("/bin/sh"), Path.of("/bin/sh"), true))
        .doesNotThrowAnyException();
  }
}
