package io.tollgate.status;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The page as served where no header can carry its policy: the same page, the policy inside. */
class StatusPagePolicyTest {

  @Test
  void thePolicyIsTheFirstElementAfterTheCharsetAndTheRestIsThePage() {
    String page = new String(StatusPage.html(), StandardCharsets.UTF_8);
    String withPolicy = new String(StatusPage.htmlWithPolicy(), StandardCharsets.UTF_8);
    String policy = StatusPage.contentSecurityPolicy().replace(" frame-ancestors 'none';", "");
    String meta = "\n<meta http-equiv=\"Content-Security-Policy\" content=\"" + policy + "\">";

    assertThat(policy).startsWith("default-src 'none'; ").contains("; script-src 'sha256-")
        .contains("; style-src 'sha256-").doesNotContain("frame-ancestors");
    assertThat(withPolicy).startsWith(page.substring(0, page.indexOf("<meta charset=\"utf-8\">"))
        + "<meta charset=\"utf-8\">" + meta);
    assertThat(withPolicy.replace(meta, "")).isEqualTo(page);
    assertThat(withPolicy.indexOf(meta)).isLessThan(withPolicy.indexOf("<style>"));
  }
}
