package io.tollgate.agent.it;

/**
 * {@link ClientContractIT} on the JDK's {@code HttpClient} over HTTP/2 (h2c, upgraded from a
 * bodiless request on a cleartext URL).
 */
class JdkHttpClientH2ContractIT extends JdkHttpClientContractIT {

  @Override
  String http() {
    return "2";
  }
}
