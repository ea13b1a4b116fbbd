package io.tollgate.agent.it;

import java.nio.file.Path;

/**
 * {@link ClientContractIT} on Apache HttpClient 4.5 (classic): {@code execute} with a response
 * handler and without one, a body read as a stream.
 */
class Apache4ClassicContractIT extends ClientContractIT {

  @Override
  ForkedApp app(Path workDir) {
    return ForkedApp.client("apache-4", "io.tollgate.agent.it.app.ApacheClassic4App", workDir);
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
    return "apache-httpclient-4";
  }
}
