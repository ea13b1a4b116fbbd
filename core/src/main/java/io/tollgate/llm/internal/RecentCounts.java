package io.tollgate.llm.internal;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.ToIntFunction;

/**
 * The token counts of long texts counted lately, each kept under a digest of its text, never the
 * text itself (no prompt stays in memory). A chat sends its whole history again with every turn;
 * with this, each earlier message is tokenized once instead of on every call, and a turn costs the
 * tokenizer only its new messages.
 *
 * <p>Texts shorter than {@value #MIN_CHARS} characters are counted each time: they cost little, and
 * keeping them would cost more. At most {@value #MAX_KEPT} counts are kept; when full, all are
 * forgotten at once (cheaper than ordering them, and rare). Two texts with the same digest (length,
 * Java hash and 64-bit FNV-1a: a chance near 2^-96 per pair) would share a count: an estimate off
 * for one call, which its settle corrects like any other.
 */
public final class RecentCounts {

  public static final int MIN_CHARS = 256;
  static final int MAX_KEPT = 8192;

  private final ToIntFunction<String> counter;
  private final Map<Digest, Integer> counts = new ConcurrentHashMap<>();

  /** @param counter counts a text's tokens: the tokenizer */
  public RecentCounts(ToIntFunction<String> counter) {
    this.counter = counter;
  }

  /** The tokens of {@code text}: remembered, or counted now. */
  public int count(String text) {
    if (text.length() < MIN_CHARS) {
      return counter.applyAsInt(text);
    }
    Digest digest = Digest.of(text);
    Integer known = counts.get(digest);
    if (known != null) {
      return known;
    }
    int counted = counter.applyAsInt(text);
    if (counts.size() >= MAX_KEPT) {
      counts.clear();
    }
    counts.put(digest, counted);
    return counted;
  }

  /** How many counts are kept now. */
  public int kept() {
    return counts.size();
  }

  record Digest(int length, int javaHash, long fnv1a) {

    static Digest of(String text) {
      long hash = 0xcbf29ce484222325L;
      for (int i = 0; i < text.length(); i++) {
        hash = (hash ^ text.charAt(i)) * 0x100000001b3L;
      }
      return new Digest(text.length(), text.hashCode(), hash);
    }
  }
}
