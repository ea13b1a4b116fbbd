package io.tollgate.agent.it;

import java.nio.file.Path;

/**
 * {@link ClientContractIT} on Apache HttpClient 5 async, the latest: the returned future, the
 * {@code FutureCallback}, a streaming consumer of the app's own.
 */
class Apache5AsyncContractIT extends ClientContractIT {

  @Override
  ForkedApp app(Path workDir) {
    return ForkedApp.client("apache-5", "io.tollgate.agent.it.app.ApacheAsync5App", workDir);
  }

  @Override
  String read() {
    return "future";
  }

  @Override
  String readOtherwise() {
    return "callback";
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
