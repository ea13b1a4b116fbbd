package io.tollgate.servlet;

import java.nio.file.Path;

/** The filter in Jetty 12 (ee10), deployed from the test app's web.xml. */
class JettyFilterTest extends FilterContract {

  @Override
  ServletContainer deploy(Path docBase) throws Exception {
    return JettyContainer.deploy(docBase);
  }
}
