package io.tollgate.llm.internal;

import com.knuddels.jtokkit.api.Encoding;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Counts a text exactly as a packed encoding ({@code o200k_base}, {@code cl100k_base}) does,
 * before jtokkit has built that encoding: jtokkit counts it with an encoding of the tokens the text
 * can need, found in a {@link TokenIndex}. Byte pair encoding splits a text into pieces and then
 * only ever asks the rank of bytes that lie within one piece, so an encoding holding every token
 * that occurs within a piece (a few hundred for a prompt) merges every piece as the whole one does.
 * With the encoding's split pattern the tokens are looked for within each piece; without one
 * (cl100k_base, which jtokkit splits with a parser of its own) within the whole text, a superset
 * that merges the same. It is built for the one text: jtokkit does all the counting, and the
 * loading of the whole encoding (a quarter of a second of CPU or more) no longer holds up the first
 * requests of a JVM that has just started.
 */
public final class PromptVocabulary {

  private final TokenIndex index;
  private final Pattern pattern;
  private final Function<Map<byte[], Integer>, Encoding> encodingOf;

  /**
   * {@code pattern} splits texts as the encoding does, or is null (the whole text is searched);
   * {@code encodingOf} makes jtokkit's encoding over some of the encoding's ranks.
   */
  PromptVocabulary(TokenIndex index, Pattern pattern,
      Function<Map<byte[], Integer>, Encoding> encodingOf) {
    this.index = index;
    this.pattern = pattern;
    this.encodingOf = encodingOf;
  }

  /** Tokens of {@code text}, special tokens counted as ordinary text. */
  public int countTokensOrdinary(String text) {
    return encodingFor(text).countTokensOrdinary(text);
  }

  /** jtokkit's encoding of the tokens within {@code text}'s pieces. */
  Encoding encodingFor(String text) {
    Map<byte[], Integer> ranks = new HashMap<>();
    BitSet found = new BitSet();
    if (pattern == null) {
      addTokensWithin(text.getBytes(StandardCharsets.UTF_8), ranks, found);
    } else {
      Matcher pieces = pattern.matcher(text);
      while (pieces.find()) {
        addTokensWithin(pieces.group().getBytes(StandardCharsets.UTF_8), ranks, found);
      }
    }
    return encodingOf.apply(ranks);
  }

  private void addTokensWithin(byte[] piece, Map<byte[], Integer> ranks, BitSet found) {
    for (int from = 0; from < piece.length; from++) {
      for (int to = from + 1; to <= piece.length; to++) {
        int position = index.lowerBound(piece, from, to);
        if (!index.startsWith(position, piece, from, to)) {
          break; // no token begins with these bytes, so none with longer ones
        }
        int rank = index.rankAt(position);
        // it begins with these bytes: it is them when it is as long
        if (index.lengthAt(position) == to - from && !found.get(rank)) {
          found.set(rank);
          ranks.put(Arrays.copyOfRange(piece, from, to), rank);
        }
      }
    }
  }
}
