package io.tollgate.agent.it;

import java.nio.file.Path;

/**
 * {@link ClientContractIT} on Apache HttpClient 5.1 async: the oldest 5 supported, the one the
 * helpers are compiled against.
 */
class Apache51AsyncContractIT extends Apache5AsyncContractIT {

  @Override
  ForkedApp app(Path workDir) {
    return ForkedApp.client("apache-5-oldest", "io.tollgate.agent.it.app.ApacheAsync5App",
        workDir);
  }
}
