package io.tollgate.together.war;

/** The WAR in Jetty 12 (an ee10 {@code WebAppContext} on the WAR file: a WebAppClassLoader over it). */
class JettyWarWithAgentIT extends WarWithAgentContract {

  @Override
  String container() {
    return "jetty";
  }

  @Override
  String hostMainClass() {
    return "io.tollgate.together.war.host.JettyHost";
  }

  @Override
  boolean isContainerJar(String entry) {
    // Jetty's jars, the Servlet API it serves and the SLF4J API it logs through (no provider:
    // a provider on the host's class path would be found, and refused, by the WAR's own SLF4J)
    return entry.contains("/org/eclipse/jetty/") && !entry.contains("/org/eclipse/jetty/http2/")
        || entry.contains("/jakarta/servlet/jakarta.servlet-api/")
        || entry.contains("/org/slf4j/slf4j-api/");
  }

  @Override
  String serverNamePrefix() {
    return "Jetty 12.";
  }
}
