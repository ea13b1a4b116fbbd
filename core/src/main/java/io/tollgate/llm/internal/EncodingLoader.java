package io.tollgate.llm.internal;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingRegistry;
import com.knuddels.jtokkit.api.EncodingType;
import com.knuddels.jtokkit.api.GptBytePairEncodingParams;
import java.io.IOException;
import java.io.InputStream;
import java.lang.System.Logger.Level;
import java.lang.reflect.Constructor;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Loads jtokkit's encodings: {@code o200k_base} and {@code cl100k_base} from the ranks the build
 * packed ({@link PackedRanks}), each split as jtokkit splits it; every other encoding, or either of
 * those when the packed ranks are missing or damaged, the way jtokkit loads it. Either way the
 * encoding counts the same (TokenCounterTest and EncodingLoaderTest compare them).
 *
 * <p>jtokkit splits {@code cl100k_base} with a hand-written parser of its own, not a pattern, and
 * builds that encoding only from its text file. The class that takes other ranks is jtokkit's
 * package-private {@code EncodingFactory$Cl100kGptBytePairEncoding}; it is reached by reflection,
 * and when it cannot be (another jtokkit, a module that does not open it), {@code cl100k_base}
 * loads from jtokkit's text and counts wait for it, as before the packed ranks.
 */
public final class EncodingLoader {

  static final String O200K_BASE = EncodingType.O200K_BASE.getName();
  static final String CL100K_BASE = EncodingType.CL100K_BASE.getName();

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
  private static final Map<String, Integer> CL100K_SPECIAL_TOKENS = Map.of(
      "<|endoftext|>", 100_257, "<|fim_prefix|>", 100_258, "<|fim_middle|>", 100_259,
      "<|fim_suffix|>", 100_260, "<|endofprompt|>", 100_276);

  private final EncodingRegistry jtokkit = Encodings.newLazyEncodingRegistry();

  /** o200k_base's split pattern, compiled once, at its first use (thread-safe). */
  private static final class O200kSplit {
    static final Pattern PATTERN = Pattern.compile(O200K_PATTERN, Pattern.UNICODE_CHARACTER_CLASS);
  }

  /** jtokkit's cl100k_base encoding class, looked up once; null when it cannot be reached. */
  private static final class Cl100kSplit {
    static final Constructor<? extends Encoding> ENCODING = find();

    @SuppressWarnings("unchecked")
    private static Constructor<? extends Encoding> find() {
      String name = Encodings.class.getPackageName() + ".EncodingFactory$Cl100kGptBytePairEncoding";
      try {
        Class<?> type = Class.forName(name, false, Encodings.class.getClassLoader());
        Constructor<?> constructor = type.getDeclaredConstructor(GptBytePairEncodingParams.class);
        constructor.setAccessible(true);
        return (Constructor<? extends Encoding>) constructor;
      } catch (ReflectiveOperationException | RuntimeException e) {
        LOG.log(Level.WARNING, name + " cannot be reached (" + e + "): cl100k_base loads from"
            + " jtokkit's text, and counts wait for it");
        return null;
      }
    }
  }

  /** Where core's pom writes the packed ranks of {@code type}. */
  public static String packedRanks(EncodingType type) {
    return "/io/tollgate/llm/" + type.getName() + ".ranks";
  }

  /** Where core's pom writes {@code type}'s ranks in their tokens' byte order ({@link TokenIndex}). */
  public static String sortedRanks(EncodingType type) {
    return "/io/tollgate/llm/" + type.getName() + ".sorted";
  }

  /** True for the encodings the build packs and that can count before they are loaded. */
  public static boolean packed(EncodingType type) {
    return type == EncodingType.O200K_BASE || type == EncodingType.CL100K_BASE;
  }

  /** Packed, and jtokkit's class that splits it reachable: its packed files are worth reading. */
  private static boolean usesPackedRanks(EncodingType type) {
    return type == EncodingType.O200K_BASE
        || type == EncodingType.CL100K_BASE && Cl100kSplit.ENCODING != null;
  }

  /** The encoding of {@code type}; thread-safe, each call loads anew. */
  public Encoding load(EncodingType type) {
    if (usesPackedRanks(type)) {
      Map<byte[], Integer> ranks = readPackedRanks(type);
      Encoding encoding = ranks == null ? null : encodingOf(type, ranks);
      if (encoding != null) {
        return encoding;
      }
    }
    return jtokkit.getEncoding(type);
  }

  /**
   * jtokkit's encoding of {@code type} (a packed one) over {@code ranks}, split as jtokkit splits
   * that encoding; null when jtokkit's cl100k_base class cannot be reached.
   */
  static Encoding encodingOf(EncodingType type, Map<byte[], Integer> ranks) {
    if (type == EncodingType.O200K_BASE) {
      return Encodings.newLazyEncodingRegistry()
          .registerGptBytePairEncoding(new GptBytePairEncodingParams(O200K_BASE, O200kSplit.PATTERN,
              ranks, O200K_SPECIAL_TOKENS))
          .getEncoding(O200K_BASE)
          .orElseThrow();
    }
    if (type != EncodingType.CL100K_BASE) {
      throw new IllegalArgumentException(type.getName() + " is not packed");
    }
    Constructor<? extends Encoding> cl100k = Cl100kSplit.ENCODING;
    if (cl100k == null) {
      return null;
    }
    try {
      // no pattern: this class splits with jtokkit's own cl100k_base parser
      return cl100k.newInstance(
          new GptBytePairEncodingParams(CL100K_BASE, null, ranks, CL100K_SPECIAL_TOKENS));
    } catch (ReflectiveOperationException e) {
      LOG.log(Level.WARNING, "jtokkit's cl100k_base encoding cannot be made (" + e + ")");
      return null;
    }
  }

  /**
   * Counts {@code type} (a packed one) exactly without its whole encoding ({@link
   * PromptVocabulary}), for the requests that come before it is loaded; null (logged) when the
   * build's files cannot be read or jtokkit's cl100k_base class cannot be reached.
   */
  public PromptVocabulary promptVocabulary(EncodingType type) {
    if (!usesPackedRanks(type)) {
      return null;
    }
    String packedPath = packedRanks(type);
    String sortedPath = sortedRanks(type);
    try (InputStream packed = EncodingLoader.class.getResourceAsStream(packedPath);
        InputStream sorted = EncodingLoader.class.getResourceAsStream(sortedPath)) {
      if (packed == null || sorted == null) {
        LOG.log(Level.WARNING, packedPath + " or " + sortedPath + " is not on the class path:"
            + " requests made before " + type.getName() + " is loaded wait for it");
        return null;
      }
      // o200k_base's pieces come from its pattern; cl100k_base's parser is jtokkit's own, so the
      // vocabulary takes the tokens within the whole text, which holds those within every piece
      Pattern pieces = type == EncodingType.O200K_BASE ? O200kSplit.PATTERN : null;
      return new PromptVocabulary(TokenIndex.read(packed, sorted), pieces,
          ranks -> encodingOf(type, ranks));
    } catch (IOException e) {
      LOG.log(Level.WARNING, sortedPath + " cannot be read (" + e.getMessage()
          + "): requests made before " + type.getName() + " is loaded wait for it");
      return null;
    }
  }

  /** The packed ranks, or null (logged) when they cannot be read: jtokkit's text then serves. */
  private static Map<byte[], Integer> readPackedRanks(EncodingType type) {
    String path = packedRanks(type);
    try (InputStream in = EncodingLoader.class.getResourceAsStream(path)) {
      if (in == null) {
        LOG.log(Level.WARNING, path + " is not on the class path: " + type.getName()
            + " loads from jtokkit's text, about 0.2 s of CPU slower");
        return null;
      }
      return PackedRanks.read(in);
    } catch (IOException e) {
      LOG.log(Level.WARNING, path + " cannot be read (" + e.getMessage() + "): " + type.getName()
          + " loads from jtokkit's text");
      return null;
    }
  }
}
