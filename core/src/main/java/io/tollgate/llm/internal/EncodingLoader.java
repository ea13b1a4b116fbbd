package io.tollgate.llm.internal;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingRegistry;
import com.knuddels.jtokkit.api.EncodingType;
import com.knuddels.jtokkit.api.GptBytePairEncodingParams;
import java.io.IOException;
import java.io.InputStream;
import java.lang.System.Logger.Level;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Loads jtokkit's encodings: {@code o200k_base} from the ranks the build packed
 * ({@link PackedRanks}), with the split pattern and special tokens jtokkit gives it; every other
 * encoding, or {@code o200k_base} when the packed ranks are missing or damaged, the way jtokkit
 * loads it. Either way the encoding counts the same (TokenCounterTest compares the two).
 * {@code cl100k_base} keeps jtokkit's loading: jtokkit counts it with a hand-written splitter of
 * its own that a pattern made here would lose.
 */
public final class EncodingLoader {

  /** Where core's pom writes the packed ranks of {@code o200k_base}. */
  public static final String PACKED_O200K_BASE = "/io/tollgate/llm/o200k_base.ranks";
  /** Where core's pom writes {@code o200k_base}'s ranks in their tokens' byte order ({@link TokenIndex}). */
  public static final String SORTED_O200K_BASE = "/io/tollgate/llm/o200k_base.sorted";

  static final String O200K_BASE = EncodingType.O200K_BASE.getName();

  private static final System.Logger LOG = System.getLogger(EncodingLoader.class.getName());

  /** jtokkit's o200k_base split pattern (tiktoken's), its alternatives joined with '|'. */
  private static final String O200K_PATTERN = String.join("|",
      "[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]*[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]+"
          + "(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
      "[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]+[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]*"
          + "(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
      "\\p{N}{1,3}",
      " ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*",
      "\\s*[\\r\\n]+",
      "\\s+(?!\\S)",
      "\\s+");
  private static final Map<String, Integer> O200K_SPECIAL_TOKENS =
      Map.of("<|endoftext|>", 199_999, "<|endofprompt|>", 200_018);

  private final EncodingRegistry jtokkit = Encodings.newLazyEncodingRegistry();

  /** o200k_base's split pattern, compiled once, at its first use (thread-safe). */
  private static final class O200kSplit {
    static final Pattern PATTERN = Pattern.compile(O200K_PATTERN, Pattern.UNICODE_CHARACTER_CLASS);
  }

  /** The encoding of {@code type}; thread-safe, each call loads anew. */
  public Encoding load(EncodingType type) {
    if (type == EncodingType.O200K_BASE) {
      Map<byte[], Integer> ranks = packedO200kRanks();
      if (ranks != null) {
        return Encodings.newLazyEncodingRegistry()
            .registerGptBytePairEncoding(new GptBytePairEncodingParams(type.getName(),
                O200kSplit.PATTERN, ranks,
                O200K_SPECIAL_TOKENS))
            .getEncoding(type.getName())
            .orElseThrow();
      }
    }
    return jtokkit.getEncoding(type);
  }

  /**
   * Counts {@code o200k_base} exactly without its whole encoding ({@link PromptVocabulary}), for
   * the requests that come while it loads; null (logged) when the build's files cannot be read.
   */
  public PromptVocabulary o200kPromptVocabulary() {
    try (InputStream packed = EncodingLoader.class.getResourceAsStream(PACKED_O200K_BASE);
        InputStream sorted = EncodingLoader.class.getResourceAsStream(SORTED_O200K_BASE)) {
      if (packed == null || sorted == null) {
        LOG.log(Level.WARNING, PACKED_O200K_BASE + " or " + SORTED_O200K_BASE + " is not on the"
            + " class path: requests made while o200k_base loads wait for it");
        return null;
      }
      return new PromptVocabulary(TokenIndex.read(packed, sorted), O200kSplit.PATTERN,
          O200K_SPECIAL_TOKENS);
    } catch (IOException e) {
      LOG.log(Level.WARNING, SORTED_O200K_BASE + " cannot be read (" + e.getMessage()
          + "): requests made while o200k_base loads wait for it");
      return null;
    }
  }

  /** The packed ranks, or null (logged) when they cannot be read: jtokkit's text then serves. */
  private static Map<byte[], Integer> packedO200kRanks() {
    try (InputStream in = EncodingLoader.class.getResourceAsStream(PACKED_O200K_BASE)) {
      if (in == null) {
        LOG.log(Level.WARNING, PACKED_O200K_BASE + " is not on the class path: o200k_base loads "
            + "from jtokkit's text, about 0.2 s of CPU slower");
        return null;
      }
      return PackedRanks.read(in);
    } catch (IOException e) {
      LOG.log(Level.WARNING, PACKED_O200K_BASE + " cannot be read (" + e.getMessage()
          + "): o200k_base loads from jtokkit's text");
      return null;
    }
  }
}
