package io.tollgate.servlet;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** Copies a test web app (a directory of test resources) to a fresh directory, its Redis URL filled in. */
final class WebApps {

  private WebApps() {}

  /** The app {@code name} ({@code webapp}, {@code broken}) with {@code @REDIS_URL@} replaced. */
  static Path prepare(String name, String redisUrl) {
    try {
      URL url = WebApps.class.getClassLoader().getResource(name + "/WEB-INF/web.xml");
      if (url == null) {
        throw new IllegalStateException("no test web app " + name);
      }
      Path source = Path.of(url.toURI()).getParent().getParent();
      Path target = Files.createTempDirectory("tollgate-" + name);
      List<Path> files;
      try (Stream<Path> walk = Files.walk(source)) {
        files = walk.toList();
      }
      for (Path file : files) {
        Path copy = target.resolve(source.relativize(file).toString());
        if (Files.isDirectory(file)) {
          Files.createDirectories(copy);
        } else if (file.toString().endsWith(".yaml")) {
          Files.writeString(copy, Files.readString(file, StandardCharsets.UTF_8).replace("@REDIS_URL@", redisUrl));
        } else {
          Files.copy(file, copy);
        }
      }
      return target;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }
}
