package io.tollgate.together.war;

/** The WAR in Tomcat 11 (embedded, {@code addWebapp}: a WebappClassLoader over the WAR). */
class TomcatWarWithAgentIT extends WarWithAgentContract {

  @Override
  String container() {
    return "tomcat";
  }

  @Override
  String hostMainClass() {
    return "io.tollgate.together.war.host.TomcatHost";
  }

  @Override
  boolean isContainerJar(String entry) {
    // tomcat-embed-core (the Servlet API included) and tomcat-annotations-api
    return entry.contains("/org/apache/tomcat/");
  }

  @Override
  String serverNamePrefix() {
    return "Apache Tomcat/11.";
  }
}
