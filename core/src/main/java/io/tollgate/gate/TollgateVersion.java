package io.tollgate.gate;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/** The Tollgate version this jar was built as. */
public final class TollgateVersion {

  private static final String VERSION = read();

  private TollgateVersion() {}

  public static String current() {
    return VERSION;
  }

  /** The version the build wrote beside this class (version.properties, filtered by Maven). */
  private static String read() {
    try (InputStream in = TollgateVersion.class.getResourceAsStream("version.properties")) {
      if (in == null) {
        throw new IllegalStateException("version.properties is missing beside "
            + TollgateVersion.class.getName() + ": the jar was not built by Maven");
      }
      Properties properties = new Properties();
      properties.load(in);
      return properties.getProperty("version");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
