package io.tollgate.servlet;

import java.net.URI;

/** A real servlet container serving one web app from a directory with a WEB-INF/web.xml. */
interface ServletContainer extends AutoCloseable {

  /** {@code http://127.0.0.1:port/}: the app is at the root context. */
  URI base();

  /** The app's URL for {@code path} ({@code /v1/chat/completions}). */
  default URI uri(String path) {
    return base().resolve(path.startsWith("/") ? path.substring(1) : path);
  }

  /** Whether the container deployed the app (false when its start-up failed). */
  boolean deployed();

  @Override
  void close() throws Exception;
}
