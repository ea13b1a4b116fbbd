package io.tollgate.agent.it;

import java.nio.file.Path;

/**
 * {@link ClientContractIT} on Apache HttpClient 5.1 classic: the oldest 5 supported, the one the
 * helpers are compiled against.
 */
class Apache51ClassicContractIT extends ClientContractIT {

  @Override
  ForkedApp app(Path workDir) {
    return ForkedApp.client("apache-5-oldest", "io.tollgate.agent.it.app.ApacheClassic5App",
        workDir);
  }

  @Override
  String read() {
    return "sync";
  }

  @Override
  String readOtherwise() {
    return "open";
  }

  @Override
  String instrumentation() {
    return "apache-httpclient-5";
  }

  /** HttpClient 5's default retry strategy re-sends a 429 once, after its {@code Retry-After}. */
  @Override
  int retriesOf429() {
    return 1;
  }
}
