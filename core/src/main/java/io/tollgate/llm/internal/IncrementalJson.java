package io.tollgate.llm.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.async.ByteArrayFeeder;
import java.io.IOException;

/**
 * One JSON document parsed as its bytes arrive (Jackson's non-blocking parser), each token handed
 * to a handler at once. Any split of the bytes works, a multi-byte character included; the
 * parser keeps only the token in progress. A syntax error, a too-long string or a too-deep nesting
 * marks the document failed; it then ignores the rest.
 */
final class IncrementalJson {

  /** Receives each token, with the parser positioned on it. */
  interface Handler {
    void onToken(JsonToken token, JsonParser parser) throws IOException;
  }

  private final JsonParser parser;
  private final ByteArrayFeeder feeder;
  private final Handler handler;
  private boolean failed;
  private boolean ended;
  private boolean sawToken;

  IncrementalJson(JsonFactory factory, Handler handler) {
    JsonParser p;
    try {
      p = factory.createNonBlockingByteArrayParser();
    } catch (IOException e) {
      throw new IllegalStateException("Jackson cannot make a non-blocking parser", e);
    }
    this.parser = p;
    this.feeder = (ByteArrayFeeder) p.getNonBlockingInputFeeder();
    this.handler = handler;
  }

  void feed(byte[] b, int off, int len) {
    if (failed || ended || len <= 0) {
      return;
    }
    try {
      // The feeder keeps a reference to b only until drain() returns: by then it has consumed it.
      feeder.feedInput(b, off, off + len);
      drain();
    } catch (IOException | RuntimeException e) {
      failed = true;
    }
  }

  /** Ends the document; true when it was complete, well-formed JSON. */
  boolean end() {
    if (!ended) {
      ended = true;
      if (!failed) {
        try {
          feeder.endOfInput();
          drain();
        } catch (IOException | RuntimeException e) {
          failed = true;
        }
      }
      try {
        parser.close();
      } catch (IOException ignored) {
        // nothing was open but a buffer
      }
    }
    return !failed && sawToken;
  }

  private void drain() throws IOException {
    JsonToken token;
    while ((token = parser.nextToken()) != null && token != JsonToken.NOT_AVAILABLE) {
      sawToken = true;
      handler.onToken(token, parser);
    }
  }
}
