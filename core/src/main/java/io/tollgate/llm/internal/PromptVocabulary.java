package io.tollgate.llm.internal;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.GptBytePairEncodingParams;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Counts a text exactly as {@code o200k_base} does, before jtokkit has built that encoding: jtokkit
 * counts it with an encoding of the tokens the text can need, found in a {@link TokenIndex}. Byte
 * pair encoding splits a text with the encoding's pattern and then only ever asks the rank of
 * bytes that lie within one piece, so an encoding holding every token that occurs within a piece
 * (a few hundred for a prompt) merges every piece as the whole one does. It is built for the one
 * text: jtokkit does all the counting, and the loading of the whole encoding (a quarter of a second
 * of CPU and 28 MB) no longer holds up the first requests of a JVM that has just started.
 */
public final class PromptVocabulary {

  private final TokenIndex index;
  private final Pattern pattern;
  private final Map<String, Integer> specialTokens;

  PromptVocabulary(TokenIndex index, Pattern pattern, Map<String, Integer> specialTokens) {
    this.index = index;
    this.pattern = pattern;
    this.specialTokens = specialTokens;
  }

  /** Tokens of {@code text}, special tokens counted as ordinary text. */
  public int countTokensOrdinary(String text) {
    return encodingFor(text).countTokensOrdinary(text);
  }

  /** jtokkit's encoding of the tokens within {@code text}'s pieces, under o200k_base's name. */
  Encoding encodingFor(String text) {
    Map<byte[], Integer> ranks = new HashMap<>();
    BitSet found = new BitSet();
    Matcher pieces = pattern.matcher(text);
    while (pieces.find()) {
      byte[] piece = pieces.group().getBytes(StandardCharsets.UTF_8);
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
    return Encodings.newLazyEncodingRegistry()
        .registerGptBytePairEncoding(
            new GptBytePairEncodingParams(EncodingLoader.O200K_BASE, pattern, ranks, specialTokens))
        .getEncoding(EncodingLoader.O200K_BASE)
        .orElseThrow();
  }
}
