package io.tollgate.llm.internal;

import com.fasterxml.jackson.core.JsonParser;
import io.tollgate.llm.TokenCounter;
import java.io.IOException;

/**
 * Adds up a prompt's tokens: text counted with the tokenizer, the format's fixed overheads, and
 * figures already in the model's tokens (images, Anthropic's tool prompt).
 *
 * <p>Only the first {@value #CHAR_BUDGET} characters of a request's text are tokenized; the rest
 * is counted at the tokens-per-character rate of those (exact for text of one kind; the settle
 * corrects the rest), or at 4 characters a token when the budget was spent before any text. This
 * bounds the CPU one request costs whatever its size: a request of megabytes costs what one of
 * {@value #CHAR_BUDGET} characters does, plus reading its JSON.
 */
final class PromptCounter {

  static final int CHAR_BUDGET = 64 * 1024;

  private final TokenCounter tokenizer;
  private final int budget;
  private long countedChars;
  private long countedTokens;
  private long uncountedChars;
  private long overhead;
  private long modelTokens;

  PromptCounter(TokenCounter tokenizer) {
    this(tokenizer, CHAR_BUDGET);
  }

  PromptCounter(TokenCounter tokenizer, int budget) {
    this.tokenizer = tokenizer;
    this.budget = budget;
  }

  TokenCounter tokenizer() {
    return tokenizer;
  }

  void text(String s) {
    if (s == null || s.isEmpty()) {
      return;
    }
    long room = budget - countedChars;
    if (s.length() <= room) {
      countedTokens += tokenizer.count(s);
      countedChars += s.length();
      return;
    }
    if (room > 0) {
      countedTokens += tokenizer.count(s.substring(0, (int) room));
      countedChars += room;
    }
    uncountedChars += s.length() - Math.max(0, room);
  }

  /** The parser's current string, without making a String of the part beyond the budget. */
  void currentString(JsonParser p) throws IOException {
    int length = p.getTextLength();
    long room = budget - countedChars;
    if (length <= room) {
      text(p.getText());
      return;
    }
    if (room > 0) {
      text(new String(p.getTextCharacters(), p.getTextOffset(), (int) room));
    }
    uncountedChars += length - Math.max(0, room);
  }

  /** Fixed tokens of the format (per message, per tool), in the tokenizer's units. */
  void overhead(long tokens) {
    overhead += tokens;
  }

  /** Tokens already in the model's own units: not scaled by an approximation. */
  void modelTokens(long tokens) {
    modelTokens += tokens;
  }

  long total() {
    long extrapolated = 0;
    if (uncountedChars > 0) {
      extrapolated = countedChars == 0
          ? ceilDiv(uncountedChars, 4)
          : ceilDiv(uncountedChars * countedTokens, countedChars);
    }
    return tokenizer.scale(Math.max(0, countedTokens + extrapolated + overhead)) + modelTokens;
  }

  private static long ceilDiv(long a, long b) {
    return (a + b - 1) / b;
  }
}
