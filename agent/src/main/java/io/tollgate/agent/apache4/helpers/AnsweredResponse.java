package io.tollgate.agent.apache4.helpers;

import io.tollgate.agent.GatedRequests;
import org.apache.http.HttpVersion;
import org.apache.http.client.methods.CloseableHttpResponse;
import org.apache.http.message.BasicHttpResponse;

/** Tollgate's own answer, a response the app's client could have returned: nothing to release. */
final class AnsweredResponse extends BasicHttpResponse implements CloseableHttpResponse {

  AnsweredResponse(int status) {
    super(HttpVersion.HTTP_1_1, status, GatedRequests.reason(status));
  }

  @Override
  public void close() {
    // held in memory: no connection to release
  }
}
