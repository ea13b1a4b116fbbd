package io.tollgate.agent.apache5.helpers;

import io.tollgate.agent.apache.ClassicExecution;
import io.tollgate.gate.Gate;
import org.apache.hc.client5.http.impl.classic.CloseableHttpResponse;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.HttpEntity;

/**
 * What the advice on HttpClient 5's classic clients calls: each execution runs through the shared
 * {@link ClassicExecution}, in HttpClient 5's terms ({@link Classic5Client}).
 */
public final class Classic5Execution {

  static final String WHERE = "apache-httpclient-5.classic";
  private static final ClassicExecution<ClassicHttpRequest, CloseableHttpResponse, HttpEntity>
      EXECUTION = new ClassicExecution<>(new Classic5Client(), WHERE);

  private Classic5Execution() {}

  /**
   * Called on entry to {@code doExecute(HttpHost, ClassicHttpRequest, HttpContext)}.
   *
   * @return null to let the client run the call itself; else what the call ends with: a
   *     {@code CloseableHttpResponse} to return, or the app's own exception to throw
   */
  public static Object handle(Object client, Object target, Object request, Object context) {
    return EXECUTION.handle(client, target, (ClassicHttpRequest) request, context);
  }

  /** The call through {@code gate}, as {@link #handle} runs it once the host is watched. */
  static Object run(Gate gate, Object client, Object target, ClassicHttpRequest request,
      Object context) {
    return EXECUTION.run(gate, client, target, request, context);
  }
}
