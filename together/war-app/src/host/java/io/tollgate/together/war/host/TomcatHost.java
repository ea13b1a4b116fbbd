package io.tollgate.together.war.host;

import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.catalina.Context;
import org.apache.catalina.LifecycleState;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;
import org.apache.catalina.util.ServerInfo;

/**
 * {@code TomcatHost <war> <port>}: Tomcat 11, embedded, deploying the WAR file with {@code
 * addWebapp} (its own WebappClassLoader over WEB-INF/classes and WEB-INF/lib, its web.xml) at the
 * root, on 127.0.0.1 ({@code 0}: a free port). Prints {@code started <port>} once the app is up,
 * or exits 1 when it failed to deploy. Stops when told (see {@link ParentWatch}).
 */
public final class TomcatHost {

  private TomcatHost() {}

  public static void main(String[] args) throws Exception {
    Path war = Path.of(args[0]).toAbsolutePath();
    Path base = Files.createTempDirectory(Path.of("").toAbsolutePath(), "tomcat-");
    Files.createDirectories(base.resolve("webapps")); // where the WAR is expanded
    Tomcat tomcat = new Tomcat();
    tomcat.setBaseDir(base.toString());
    Connector connector = new Connector();
    connector.setPort(Integer.parseInt(args[1]));
    connector.setProperty("address", "127.0.0.1");
    tomcat.setConnector(connector);
    tomcat.setAddDefaultWebXmlToWebapp(false); // the WAR's own web.xml only (no JSP servlet)
    Context context = tomcat.addWebapp("", war.toString());
    tomcat.start();
    ParentWatch.start(() -> stop(tomcat));
    if (context.getState() != LifecycleState.STARTED) {
      System.out.println("failed " + war + " is " + context.getState());
      System.exit(1);
    }
    System.out.println("started " + connector.getLocalPort() + " " + ServerInfo.getServerInfo());
    tomcat.getServer().await();
  }

  /** As {@code shutdown.sh}: the app undeployed, its filter destroyed. */
  private static void stop(Tomcat tomcat) {
    try {
      tomcat.stop();
      tomcat.destroy();
    } catch (Exception e) {
      e.printStackTrace();
    }
  }
}
