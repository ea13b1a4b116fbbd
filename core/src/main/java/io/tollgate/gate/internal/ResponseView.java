package io.tollgate.gate.internal;

import io.tollgate.llm.Headers;

/** The part of a transport a call needs to judge a response. */
public interface ResponseView<R> {

  int status(R response);

  Headers headers(R response);

  void discard(R response);

  /** See {@link io.tollgate.gate.Transport#hold}. */
  boolean hold(R response);
}
