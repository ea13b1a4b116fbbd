package io.tollgate.agent.it;

import java.nio.file.Path;

/** {@link ClientContractIT} on OkHttp 4.12, as on OkHttp 3.14. */
class OkHttp4ContractIT extends OkHttp3ContractIT {

  @Override
  ForkedApp app(Path workDir) {
    return ForkedApp.okhttp("4", workDir);
  }
}
