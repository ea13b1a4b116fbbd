package io.tollgate.hostile;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/** The well-formed bodies and configuration the hostile variants start from. */
final class Resources {

  private Resources() {}

  static byte[] bytes(String path) {
    try (InputStream in = Resources.class.getResourceAsStream("/io/tollgate/" + path)) {
      if (in == null) {
        throw new IllegalArgumentException("no test resource io/tollgate/" + path);
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
