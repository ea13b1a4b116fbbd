package io.tollgate.agent.it;

import java.nio.file.Path;

/**
 * {@link ClientContractIT} on OkHttp 5.5: {@code execute}, {@code enqueue}, a body read as a
 * stream.
 */
class OkHttp5ContractIT extends ClientContractIT {

  @Override
  ForkedApp app(Path workDir) {
    return ForkedApp.okhttp("5", workDir);
  }

  @Override
  String read() {
    return "sync";
  }

  @Override
  String readOtherwise() {
    return "async";
  }

  @Override
  String instrumentation() {
    return "okhttp";
  }
}
