package io.tollgate.status.browser;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.stream.Stream;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * A headless Chromium driven through chromedriver, both the system's own (Debian's packages):
 * Selenium Manager is never asked, since it would download a browser and this network reaches
 * only Maven Central, Debian and npm. One per test class: a start costs more than a test.
 */
final class Browser implements AutoCloseable {

  static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
  /** Every test's viewport, and so the screenshot's size: wide enough for the providers table. */
  static final Dimension VIEWPORT = new Dimension(1600, 1000);
  /** How long a page may take to show what the gate did: the page polls every 2 s. */
  static final Duration PATIENCE = Duration.ofSeconds(10);

  private final ChromeDriver driver;
  private final Path profile;

  private Browser(ChromeDriver driver, Path profile) {
    this.driver = driver;
    this.profile = profile;
  }

  /** Starts one, or fails or skips the test class when the machine has no Chromium (see there). */
  static Browser start() throws IOException {
    BrowserRequirement.check(CHROMIUM, CHROMEDRIVER, BrowserRequirement.required());
    System.setProperty("webdriver.chrome.driver", CHROMEDRIVER.toString());
    Path profile = Files.createTempDirectory("tollgate-chromium-");
    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM.toFile());
    options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu",
        "--disable-dev-shm-usage", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--user-data-dir=" + profile, "--lang=en-US");
    // the console, CSP violations included, for the tests that read it
    LoggingPreferences logs = new LoggingPreferences();
    logs.enable(LogType.BROWSER, Level.ALL);
    options.setCapability("goog:loggingPrefs", logs);
    ChromeDriverService service = new ChromeDriverService.Builder()
        .usingDriverExecutable(CHROMEDRIVER.toFile())
        .usingAnyFreePort()
        .build();
    try {
      ChromeDriver driver = new ChromeDriver(service, options);
      fitViewport(driver);
      return new Browser(driver, profile);
    } catch (RuntimeException e) {
      delete(profile);
      throw e;
    }
  }

  WebDriver driver() {
    return driver;
  }

  /** Waits until {@code condition} holds (a non-null, non-false value), at most {@link #PATIENCE}. */
  <T> T await(String what, Function<WebDriver, T> condition) {
    return new WebDriverWait(driver, PATIENCE).withMessage(what).until(condition);
  }

  /** The console's errors since the last call (the log is drained by reading it). */
  List<String> consoleErrors() {
    return driver.manage().logs().get(LogType.BROWSER).getAll().stream()
        .filter(entry -> entry.getLevel().intValue() >= Level.SEVERE.intValue())
        .map(LogEntry::getMessage)
        .toList();
  }

  byte[] screenshot() {
    return driver.getScreenshotAs(OutputType.BYTES);
  }

  @Override
  public void close() {
    try {
      driver.quit();
    } finally {
      delete(profile);
    }
  }

  /** Sizes the window so that its viewport, not the window, is {@link #VIEWPORT}. */
  private static void fitViewport(ChromeDriver driver) {
    driver.manage().window().setSize(VIEWPORT);
    List<?> inner = (List<?>) driver.executeScript("return [innerWidth, innerHeight];");
    driver.manage().window().setSize(new Dimension(
        2 * VIEWPORT.width - ((Number) inner.get(0)).intValue(),
        2 * VIEWPORT.height - ((Number) inner.get(1)).intValue()));
  }

  private static void delete(Path directory) {
    try (Stream<Path> files = Files.walk(directory)) {
      files.sorted(Comparator.reverseOrder()).forEach(file -> file.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
