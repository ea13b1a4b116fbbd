package io.tollgate.together.war.host;

import java.nio.file.Files;
import java.nio.file.Path;
import org.eclipse.jetty.ee10.webapp.WebAppContext;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * {@code JettyHost <war> <port>}: Jetty 12, deploying the WAR file in an ee10 {@link WebAppContext}
 * (its own WebAppClassLoader over WEB-INF/classes and WEB-INF/lib, its web.xml) at the root, on
 * 127.0.0.1 ({@code 0}: a free port). Prints {@code started <port>} once the app is up, or exits 1
 * when it failed to deploy. Stops when told (see {@link ParentWatch}).
 */
public final class JettyHost {

  private JettyHost() {}

  public static void main(String[] args) throws Exception {
    Path war = Path.of(args[0]).toAbsolutePath();
    Server server = new Server();
    ServerConnector connector = new ServerConnector(server);
    connector.setHost("127.0.0.1");
    connector.setPort(Integer.parseInt(args[1]));
    server.addConnector(connector);
    WebAppContext webapp = new WebAppContext();
    webapp.setContextPath("/");
    webapp.setWar(war.toString());
    webapp.setTempDirectory(Files.createTempDirectory(Path.of("").toAbsolutePath(), "jetty-").toFile());
    webapp.setThrowUnavailableOnStartupException(true);
    server.setHandler(webapp);
    try {
      server.start();
    } catch (Exception e) {
      System.out.println("failed " + war + ": " + e);
      e.printStackTrace();
      System.exit(1);
    }
    ParentWatch.start(() -> stop(server));
    System.out.println("started " + connector.getLocalPort() + " Jetty " + Server.getVersion());
    server.join();
  }

  /** The app undeployed, its filter destroyed. */
  private static void stop(Server server) {
    try {
      server.stop();
    } catch (Exception e) {
      e.printStackTrace();
    }
  }
}
