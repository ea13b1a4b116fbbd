package io.tollgate.spring.boot.actuate;

import org.springframework.boot.actuate.endpoint.Producible;
import org.springframework.util.MimeType;
import org.springframework.util.MimeTypeUtils;

/**
 * What {@code /actuator/tollgate} answers in, chosen by the request's {@code Accept}: the actuator's
 * JSON as every endpoint produces it (its two versions, then plain JSON, in the actuator's own
 * order, so that a request without {@code Accept} gets what it always got), or the status page.
 * When {@code Accept} names several, the actuator picks the last one listed here: a browser, which
 * accepts HTML and anything, gets the page.
 */
public enum EndpointFormat implements Producible<EndpointFormat> {

  ACTUATOR_V3_JSON("application/vnd.spring-boot.actuator.v3+json"),
  ACTUATOR_V2_JSON("application/vnd.spring-boot.actuator.v2+json"),
  JSON("application/json"),
  HTML("text/html");

  private final MimeType mimeType;

  EndpointFormat(String mimeType) {
    this.mimeType = MimeTypeUtils.parseMimeType(mimeType);
  }

  @Override
  public MimeType getProducedMimeType() {
    return mimeType;
  }

  /** Without {@code Accept}, or with one of any type: the actuator's JSON. */
  @Override
  public boolean isDefault() {
    return this == ACTUATOR_V3_JSON;
  }
}
