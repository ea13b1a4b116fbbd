package io.tollgate.agent.apache4.helpers;

import io.tollgate.agent.InternalFailures;
import io.tollgate.agent.apache.ClassicExecution;
import io.tollgate.gate.Gate;
import org.apache.http.HttpEntity;
import org.apache.http.HttpRequest;
import org.apache.http.client.methods.CloseableHttpResponse;

/**
 * What the advice on HttpClient 4.5's classic clients calls: each execution runs through the
 * shared {@link ClassicExecution}, in HttpClient 4.5's terms ({@link Classic4Client}).
 */
public final class Classic4Execution {

  static final String WHERE = "apache-httpclient-4.classic";
  private static final ClassicExecution<HttpRequest, CloseableHttpResponse, HttpEntity> EXECUTION =
      new ClassicExecution<>(new Classic4Client(), WHERE);

  private Classic4Execution() {}

  /**
   * Called on entry to {@code doExecute(HttpHost, HttpRequest, HttpContext)}.
   *
   * @return null to let the client run the call itself; else what the call ends with: a
   *     {@code CloseableHttpResponse} to return, or the app's own exception to throw
   */
  public static Object handle(Object client, Object target, Object request, Object context) {
    return EXECUTION.handle(client, target, (HttpRequest) request, context);
  }

  /** The call through {@code gate}, as {@link #handle} runs it once the host is watched. */
  static Object run(Gate gate, Object client, Object target, HttpRequest request, Object context) {
    return EXECUTION.run(gate, client, target, request, context);
  }

  /**
   * Called on entry to {@code close()} of a response the client returned: a provider's answer
   * closed before its entity was read to the end is settled with what was read (nothing read: the
   * estimate; the provider did the work). Anything else, or an answer already settled, is left be.
   */
  public static void closing(Object closed) {
    try {
      HttpEntity entity = ((CloseableHttpResponse) closed).getEntity();
      if (entity instanceof UsageTappingEntity) {
        ((UsageTappingEntity) entity).responseClosed();
      }
    } catch (RuntimeException | LinkageError e) {
      InternalFailures.record(WHERE, e);
    }
  }
}
