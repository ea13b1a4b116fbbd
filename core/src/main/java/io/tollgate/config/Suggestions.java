package io.tollgate.config;

import java.util.Collection;
import java.util.Locale;
import java.util.Optional;

/** "Did you mean": the known name closest to a misspelt one, when it is close enough to be the intent. */
final class Suggestions {

  private Suggestions() {}

  static Optional<String> closest(String unknown, Collection<String> known) {
    String folded = fold(unknown);
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String candidate : known) {
      if (fold(candidate).equals(folded)) {
        return Optional.of(candidate); // tokensPerMinute, TOKENS_PER_MINUTE for tokens-per-minute
      }
      int distance = distance(unknown.toLowerCase(Locale.ROOT), candidate.toLowerCase(Locale.ROOT));
      if (distance < bestDistance) {
        best = candidate;
        bestDistance = distance;
      }
    }
    // One edit in three characters, at most three: typos, not another word of similar length
    // (TOLLGATE_PROVIDERS_ANTHROPIC_... is not a typo of TOLLGATE_PROVIDERS_OPENAI_...).
    int allowed = Math.max(1, Math.min(3, unknown.length() / 3));
    return bestDistance <= allowed ? Optional.of(best) : Optional.empty();
  }

  /** Case and separators dropped: the spellings Spring's relaxed binding would treat as one. */
  private static String fold(String name) {
    return name.replaceAll("[-_.]", "").toLowerCase(Locale.ROOT);
  }

  /** Levenshtein distance. */
  static int distance(String a, String b) {
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
      }
      int[] swap = previous;
      previous = current;
      current = swap;
    }
    return previous[b.length()];
  }
}
