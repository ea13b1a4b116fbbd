package io.tollgate.agent.it;

import java.nio.file.Path;

/**
 * {@link ClientContractIT} on Apache HttpClient 5.1 classic: the oldest 5 supported, the one the
 * helpers are compiled against.
 */
class Apache51ClassicContractIT extends Apache5ClassicContractIT {

  @Override
  ForkedApp app(Path workDir) {
    return ForkedApp.client("apache-5-oldest", "io.tollgate.agent.it.app.ApacheClassic5App",
        workDir);
  }
}
