package io.tollgate.llm.internal;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;

/**
 * One JSON document whose bytes arrive in pieces, handed token by token to a handler. A document
 * up to {@value #BUFFERED_MAX} bytes (nearly every SSE event, most response bodies) is collected
 * and parsed at its end by Jackson's blocking parser, which is faster and skips the strings the
 * handler does not ask for without decoding them. A larger one switches to {@link
 * IncrementalJson} and is parsed as it arrives, so memory stays bounded whatever its size.
 * Reusable: {@link #end()} makes it ready for the next document.
 */
final class JsonDocument {

  static final int BUFFERED_MAX = 64 * 1024;

  private final IncrementalJson.Handler handler;
  private final int bufferedMax;
  private byte[] buffer = new byte[1024];
  private int length;
  private IncrementalJson streaming;

  JsonDocument(IncrementalJson.Handler handler) {
    this(handler, BUFFERED_MAX);
  }

  /** With another threshold: 0 parses everything incrementally (tests compare the two paths). */
  JsonDocument(IncrementalJson.Handler handler, int bufferedMax) {
    this.handler = handler;
    this.bufferedMax = bufferedMax;
  }

  void feed(byte[] b, int off, int len) {
    if (streaming != null) {
      streaming.feed(b, off, len);
      return;
    }
    if (length + len <= bufferedMax) {
      if (length + len > buffer.length) {
        byte[] larger = new byte[Math.min(bufferedMax, Math.max(buffer.length * 2, length + len))];
        System.arraycopy(buffer, 0, larger, 0, length);
        buffer = larger;
      }
      System.arraycopy(b, off, buffer, length, len);
      length += len;
      return;
    }
    streaming = new IncrementalJson(Json.RESPONSES, handler);
    streaming.feed(buffer, 0, length);
    length = 0;
    streaming.feed(b, off, len);
  }

  /** Ends the document; true when it was complete, well-formed JSON. Ready for the next one. */
  boolean end() {
    boolean complete;
    if (streaming != null) {
      complete = streaming.end();
      streaming = null;
    } else {
      complete = parseBuffered();
    }
    length = 0;
    return complete;
  }

  private boolean parseBuffered() {
    if (length == 0) {
      return false;
    }
    boolean sawToken = false;
    try (JsonParser parser = Json.RESPONSES.createParser(buffer, 0, length)) {
      JsonToken token;
      while ((token = parser.nextToken()) != null) {
        sawToken = true;
        handler.onToken(token, parser);
      }
      return sawToken;
    } catch (IOException | RuntimeException malformed) {
      return false;
    }
  }
}
