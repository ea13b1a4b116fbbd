package io.tollgate.llm;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * A response Tollgate answers in the provider's place (a 429 when a limit refuses, a 503 or 529
 * when no provider can take the call), shaped like the provider's own so that the app's error
 * handling and its SDK's retries work unchanged.
 */
public final class SyntheticResponse {

  private final int status;
  private final Headers headers;
  private final byte[] body;

  private SyntheticResponse(int status, Headers headers, byte[] body) {
    if (status < 100 || status > 599) {
      throw new IllegalArgumentException("status must be 100-599, was " + status);
    }
    this.status = status;
    this.headers = Objects.requireNonNull(headers, "headers");
    this.body = body.clone();
  }

  public static SyntheticResponse of(int status, Headers headers, byte[] body) {
    return new SyntheticResponse(status, headers, Objects.requireNonNull(body, "body"));
  }

  public int status() {
    return status;
  }

  /** The header fields, in order; {@code content-type} first. */
  public Headers headers() {
    return headers;
  }

  /** A copy of the body. */
  public byte[] body() {
    return body.clone();
  }

  public String bodyAsString() {
    return new String(body, StandardCharsets.UTF_8);
  }

  public int bodyLength() {
    return body.length;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SyntheticResponse other
        && status == other.status && headers.equals(other.headers) && Arrays.equals(body, other.body);
  }

  @Override
  public int hashCode() {
    return 31 * (31 * status + headers.hashCode()) + Arrays.hashCode(body);
  }

  @Override
  public String toString() {
    return status + " " + headers + " " + bodyAsString();
  }
}
