package io.tollgate.llm.internal;

import io.tollgate.llm.TokenCounter;

/**
 * The generated text of a response, for estimating its output tokens when the provider reports
 * none: the first {@value #SAMPLE_CHARS} characters are kept, the rest only counted, and the
 * estimate scales the sample's tokens by total / kept characters. Tokenizing happens only when an
 * estimate is asked for, so a response that reports usage never pays for it.
 */
final class ContentSample {

  static final int SAMPLE_CHARS = 64 * 1024;

  private final StringBuilder kept = new StringBuilder();
  private long totalChars;
  private int markKept;
  private long markTotal;

  void append(String s) {
    if (s == null || s.isEmpty()) {
      return;
    }
    totalChars += s.length();
    int room = SAMPLE_CHARS - kept.length();
    if (room > 0) {
      kept.append(s, 0, Math.min(room, s.length()));
    }
  }

  /** Remembers the current state, to roll back to if the document being read turns out broken. */
  void mark() {
    markKept = kept.length();
    markTotal = totalChars;
  }

  void rollback() {
    kept.setLength(markKept);
    totalChars = markTotal;
  }

  long totalChars() {
    return totalChars;
  }

  long estimateTokens(TokenCounter tokenizer) {
    if (totalChars == 0) {
      return 0;
    }
    long sampled = tokenizer.count(kept.toString());
    if (kept.length() == totalChars) {
      return tokenizer.scale(sampled);
    }
    return tokenizer.scale((sampled * totalChars + kept.length() - 1) / kept.length());
  }
}
