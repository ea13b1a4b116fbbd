package io.tollgate.llm.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.JsonStreamContext;

/** The shared Jackson factories and a path matcher over Jackson's parsing context. */
final class Json {

  /** Marks an array level in a {@link #at} path. */
  static final String ARRAY = "[]";

  /**
   * Requests: a prompt string may be as long as a body may be (Anthropic accepts 32 MB); strings
   * Tollgate does not need (base64 images) are skipped without being decoded.
   */
  static final JsonFactory REQUESTS = JsonFactory.builder()
      .streamReadConstraints(StreamReadConstraints.builder().maxStringLength(64 << 20).build())
      .build();

  /**
   * Responses, parsed incrementally: the parser holds one string at a time, so this caps the memory
   * a tap can take. A longer string (a huge base64 image) makes its document unreadable.
   */
  static final int MAX_RESPONSE_STRING = 4 << 20;

  static final JsonFactory RESPONSES = JsonFactory.builder()
      .streamReadConstraints(StreamReadConstraints.builder().maxStringLength(MAX_RESPONSE_STRING).build())
      .build();

  static final JsonFactory WRITER = new JsonFactory();

  private Json() {}

  /**
   * True when a scalar whose container context is {@code ctx} sits at {@code path} from the root,
   * e.g. {@code at(ctx, "choices", ARRAY, "delta", "content")}.
   */
  static boolean at(JsonStreamContext ctx, String... path) {
    JsonStreamContext c = ctx;
    for (int i = path.length - 1; i >= 0; i--) {
      if (c == null || c.inRoot()) {
        return false;
      }
      if (path[i] == ARRAY) {
        if (!c.inArray()) {
          return false;
        }
      } else if (!c.inObject() || !path[i].equals(c.getCurrentName())) {
        return false;
      }
      c = c.getParent();
    }
    return c != null && c.inRoot();
  }
}
