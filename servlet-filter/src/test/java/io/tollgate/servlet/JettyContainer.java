package io.tollgate.servlet;

import java.net.URI;
import java.nio.file.Path;
import org.eclipse.jetty.ee10.webapp.WebAppContext;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/** Jetty 12 deploying an ee10 (Servlet 6.0) web app from its directory, as a WAR would be. */
final class JettyContainer implements ServletContainer {

  private final Server server;
  private final WebAppContext webapp;
  private final URI base;

  private JettyContainer(Server server, WebAppContext webapp, URI base) {
    this.server = server;
    this.webapp = webapp;
    this.base = base;
  }

  /** Starts the app; a failed deployment leaves {@link #deployed()} false instead of throwing. */
  static JettyContainer deploy(Path docBase) throws Exception {
    Server server = new Server();
    HttpConfiguration http = new HttpConfiguration();
    http.setRequestHeaderSize(64 * 1024); // hostile tenant ids of 10 KB
    ServerConnector connector = new ServerConnector(server, new HttpConnectionFactory(http));
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    server.addConnector(connector);
    WebAppContext webapp = new WebAppContext();
    webapp.setContextPath("/");
    webapp.setWar(docBase.toString());
    webapp.setParentLoaderPriority(true); // the filter and the test servlets come from the test class path
    webapp.setThrowUnavailableOnStartupException(false);
    server.setHandler(webapp);
    server.start();
    return new JettyContainer(server, webapp,
        URI.create("http://127.0.0.1:" + connector.getLocalPort() + "/"));
  }

  @Override
  public URI base() {
    return base;
  }

  @Override
  public boolean deployed() {
    return webapp.isAvailable() && webapp.getUnavailableException() == null;
  }

  /** Why the deployment failed, or null. */
  Throwable failure() {
    return webapp.getUnavailableException();
  }

  @Override
  public void close() throws Exception {
    server.stop();
  }

  @Override
  public String toString() {
    return "Jetty " + Server.getVersion();
  }
}
