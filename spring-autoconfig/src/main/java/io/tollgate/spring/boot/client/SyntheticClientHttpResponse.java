package io.tollgate.spring.boot.client;

import io.tollgate.llm.SyntheticResponse;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.client.ClientHttpResponse;

/**
 * Tollgate's own answer (a 429 when limited, a 503 when no provider can take the call) as the
 * client would have delivered the provider's: the app's status handlers and SDK retries see what
 * the provider would have sent.
 */
final class SyntheticClientHttpResponse implements ClientHttpResponse {

  private final SyntheticResponse answer;
  private final HttpHeaders headers = new HttpHeaders();

  SyntheticClientHttpResponse(SyntheticResponse answer) {
    this.answer = answer;
    SpringHeaders.copyInto(answer.headers(), headers);
  }

  @Override
  public HttpStatusCode getStatusCode() {
    return HttpStatusCode.valueOf(answer.status());
  }

  @Override
  public String getStatusText() {
    return SpringHeaders.reason(answer.status());
  }

  @Override
  public HttpHeaders getHeaders() {
    return headers;
  }

  @Override
  public InputStream getBody() {
    return new ByteArrayInputStream(answer.body());
  }

  @Override
  public void close() {
    // nothing held
  }
}
