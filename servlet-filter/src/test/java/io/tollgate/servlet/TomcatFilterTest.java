package io.tollgate.servlet;

import java.nio.file.Path;

/** The filter in Tomcat 11, embedded, deployed from the test app's web.xml. */
class TomcatFilterTest extends FilterContract {

  @Override
  ServletContainer deploy(Path docBase) throws Exception {
    return TomcatContainer.deploy(docBase);
  }
}
