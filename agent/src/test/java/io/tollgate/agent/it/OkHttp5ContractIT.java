package io.tollgate.agent.it;

import java.nio.file.Path;

/** {@link ClientContractIT} on OkHttp 5.5, as on OkHttp 3.14. */
class OkHttp5ContractIT extends OkHttp3ContractIT {

  @Override
  ForkedApp app(Path workDir) {
    return ForkedApp.okhttp("5", workDir);
  }
}
