package io.tollgate.servlet;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/** A configuration the filter cannot run with stops the container from deploying the app. */
class DeploymentTest {

  private static final String PROBLEM = "tollgate.tenants.limits.tokens-per-minute must be > 0, was -5";

  @Test
  void jettyRefusesAnAppWhoseConfigurationIsWrongAndSaysWhichKey() throws Exception {
    try (JettyContainer jetty = JettyContainer.deploy(WebApps.prepare("broken", "redis://unused"))) {
      assertThat(jetty.deployed()).isFalse();
      assertThat(messages(jetty.failure())).contains(PROBLEM);
    }
  }

  @Test
  void tomcatRefusesAnAppWhoseConfigurationIsWrongAndSaysWhichKey() throws Exception {
    List<Throwable> logged = new CopyOnWriteArrayList<>();
    Handler capture = new Handler() {
      @Override
      public void publish(LogRecord record) {
        if (record.getThrown() != null) {
          logged.add(record.getThrown());
        }
      }

      @Override
      public void flush() {}

      @Override
      public void close() {}
    };
    Logger root = Logger.getLogger("");
    root.addHandler(capture);
    try (TomcatContainer tomcat = TomcatContainer.deploy(WebApps.prepare("broken", "redis://unused"))) {
      assertThat(tomcat.deployed()).isFalse();
      assertThat(logged).anySatisfy(thrown -> assertThat(messages(thrown)).contains(PROBLEM));
    } finally {
      root.removeHandler(capture);
    }
  }

  private static String messages(Throwable thrown) {
    StringBuilder all = new StringBuilder();
    for (Throwable t = thrown; t != null; t = t.getCause()) {
      all.append(t.getMessage()).append('\n');
    }
    return all.toString();
  }
}
