package io.tollgate.servlet;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.catalina.Context;
import org.apache.catalina.LifecycleState;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;
import org.apache.catalina.util.ServerInfo;
import org.apache.tomcat.util.scan.StandardJarScanner;

/** Tomcat 11 (Servlet 6.1), embedded, deploying a web app directory with {@code addWebapp}. */
final class TomcatContainer implements ServletContainer {

  private final Tomcat tomcat;
  private final Context context;
  private final URI base;

  private TomcatContainer(Tomcat tomcat, Context context, URI base) {
    this.tomcat = tomcat;
    this.context = context;
    this.base = base;
  }

  /** Starts the app; a failed deployment leaves {@link #deployed()} false instead of throwing. */
  static TomcatContainer deploy(Path docBase) throws Exception {
    Tomcat tomcat = new Tomcat();
    tomcat.setBaseDir(Files.createTempDirectory("tomcat").toString());
    Connector connector = new Connector();
    connector.setPort(0);
    connector.setProperty("address", "127.0.0.1");
    connector.setProperty("maxHttpRequestHeaderSize", Integer.toString(64 * 1024)); // hostile tenant ids of 10 KB
    tomcat.setConnector(connector);
    tomcat.setAddDefaultWebXmlToWebapp(false); // only the app's own web.xml (no JSP servlet)
    Context context = tomcat.addWebapp("", docBase.toString());
    StandardJarScanner scanner = (StandardJarScanner) context.getJarScanner();
    scanner.setScanClassPath(false);
    scanner.setScanManifest(false);
    tomcat.start();
    return new TomcatContainer(tomcat, context,
        URI.create("http://127.0.0.1:" + connector.getLocalPort() + "/"));
  }

  @Override
  public URI base() {
    return base;
  }

  @Override
  public boolean deployed() {
    return context.getState() == LifecycleState.STARTED;
  }

  @Override
  public void close() throws Exception {
    tomcat.stop();
    tomcat.destroy();
  }

  @Override
  public String toString() {
    return ServerInfo.getServerInfo();
  }
}
