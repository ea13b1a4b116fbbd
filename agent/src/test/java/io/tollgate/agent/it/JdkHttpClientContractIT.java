package io.tollgate.agent.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.agent.it.ForkedApp.Run;
import io.tollgate.testkit.llm.RecordedRequest;
import java.nio.file.Path;
import java.util.List;

/**
 * {@link ClientContractIT} on the JDK's {@code HttpClient} over HTTP/1.1: {@code send},
 * {@code sendAsync}, and two ways to stream ({@code ofInputStream} read in small chunks,
 * {@code ofLines}).
 */
class JdkHttpClientContractIT extends ClientContractIT {

  /** The version the app asks its client for ({@code -Dapp.http}). */
  String http() {
    return "1.1";
  }

  @Override
  ForkedApp app(Path workDir) {
    return ForkedApp.launcher(workDir, ForkedApp.appClasses().toString(),
            "io.tollgate.agent.it.app.JdkHttpClientApp")
        .jvmOption("-Dapp.http=" + http());
  }

  @Override
  String read() {
    return "send";
  }

  @Override
  String readOtherwise() {
    return "async";
  }

  @Override
  List<String> streams() {
    return List.of("stream", "lines");
  }

  @Override
  String instrumentation() {
    return "jdk-httpclient";
  }

  /**
   * Each call in the version the app asked for, but the last: the fallback's first call goes
   * HTTP/1.1, as the JDK upgrades only bodiless requests.
   */
  @Override
  void alsoShows(Run run, List<RecordedRequest> appsRequests) {
    String version = http().equals("2") ? "HTTP_2" : "HTTP_1_1";
    int last = run.calls().size();
    for (int call = 1; call < last; call++) {
      assertThat(run.stdout()).as("the version the app saw")
          .contains("version " + call + " " + version);
    }
    assertThat(run.stdout()).contains("version " + last + " HTTP_1_1");
    assertThat(appsRequests).as("the app's calls, in the version it asked for")
        .extracting(RecordedRequest::httpVersion)
        .containsOnly(http().equals("2") ? "HTTP/2.0" : "HTTP/1.1");
  }
}
