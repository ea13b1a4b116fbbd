package io.tollgate.llm;

import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;
import io.tollgate.llm.internal.EncodingLoader;
import io.tollgate.llm.internal.PromptVocabulary;
import io.tollgate.llm.internal.RecentCounts;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * Counts tokens the way a model family's tokenizer does (jtokkit, a Java port of OpenAI's
 * tiktoken).
 *
 * <ul>
 *   <li>{@code o200k_base}: gpt-4o, gpt-4.1, gpt-4.5, gpt-5, o1, o3, o4, gpt-oss, chatgpt-4o,
 *       codex and gpt-image families;
 *   <li>{@code cl100k_base}: gpt-4 (turbo, 32k), gpt-3.5 (Azure's gpt-35), text-embedding-3 and
 *       ada-002, davinci-002, babbage-002;
 *   <li>Claude ({@code claude-*}, and anything sent to the Anthropic API): Anthropic publishes no
 *       tokenizer, so {@code cl100k_base} stands in and totals are scaled by 1.2, rounded up
 *       (tiktoken undercounts Claude by about 15-20% on ordinary text);
 *   <li>any other model: {@code o200k_base}, the encoding of every current OpenAI family.
 * </ul>
 *
 * <p>Special tokens ({@code <|endoftext|>}) in text are counted as ordinary text, never rejected.
 * Loading an encoding takes a quarter to half a second of CPU, once per JVM ({@code o200k_base}
 * and {@code cl100k_base} from ranks packed at build time, see {@link EncodingLoader});
 * {@link #warmUp(Collection)} does it ahead of the first request, or, for those two, once counting
 * without it stops paying ({@link #LOAD_AFTER_TEXTS}). A text of 256 characters or more counted
 * lately (a chat's history, sent again with every turn) is not tokenized again ({@link
 * RecentCounts}). Thread-safe.
 */
public final class TokenCounter {

  public static final String O200K_BASE = "o200k_base";
  public static final String CL100K_BASE = "cl100k_base";

  /** The Anthropic scale factor, 1.2, as the fraction 6/5 so the rounding is exact. */
  private static final long APPROXIMATION_NUMERATOR = 6;
  private static final long APPROXIMATION_DENOMINATOR = 5;

  /**
   * After a warm-up, {@code o200k_base} and {@code cl100k_base} count each text with that text's
   * vocabulary ({@link PromptVocabulary}) and load the whole encoding on a thread of their own once
   * they have counted this many texts, or {@link #LOAD_AFTER_CHARACTERS}. A short prompt costs
   * about 50 µs that way and a thousand characters 0.8 ms, against 1.4 µs and 0.05 ms once loaded
   * (o200k_base); loading costs a quarter of a second of CPU and 28 MB of heap (o200k_base; half
   * that for cl100k_base). So an app that keeps calling loads it over its first
   * calls, without waiting for it, and one that calls a few times or now and then never does. The
   * first calls of a JVM are the ones short of CPU: classes load and the JIT compiles.
   */
  public static final int LOAD_AFTER_TEXTS = 32;
  /** See {@link #LOAD_AFTER_TEXTS}: the characters counted in all, about 8 ms of counting. */
  public static final long LOAD_AFTER_CHARACTERS = 8_192;

  private static final EncodingLoader LOADER = new EncodingLoader();

  private static final TokenCounter O200K = new TokenCounter(EncodingType.O200K_BASE, false);
  private static final TokenCounter CL100K = new TokenCounter(EncodingType.CL100K_BASE, false);
  private static final TokenCounter ANTHROPIC = new TokenCounter(EncodingType.CL100K_BASE, true);

  private static final String[] O200K_FAMILIES = {
    "gpt-4o", "gpt-4.1", "gpt-4.5", "gpt-5", "o1", "o3", "o4", "chatgpt-", "gpt-oss", "codex-",
    "gpt-image", "gpt-realtime", "gpt-audio", "computer-use", "omni-moderation"
  };
  private static final String[] CL100K_FAMILIES = {
    "gpt-4", "gpt-3.5", "gpt-35", "text-embedding-3", "text-embedding-ada-002", "davinci-002",
    "babbage-002"
  };

  private final EncodingType type;
  private final boolean approximate;
  /** A chat's earlier messages come again with every turn: each long one is tokenized once. */
  private final RecentCounts recent = new RecentCounts(this::countNow);
  private final Supplier<Encoding> load;
  private volatile Encoding encoding;
  /**
   * A warm-up has been asked for: until a packed encoding is loaded, counts do not wait for it and
   * it loads when it pays (see {@link #countNow}).
   */
  private volatile boolean warmedUp;
  /** Texts and characters counted without the loaded encoding, for {@link #LOAD_AFTER_TEXTS}. */
  private final AtomicInteger textsCountedEarly = new AtomicInteger();
  private final AtomicLong charactersCountedEarly = new AtomicLong();
  /** The load counting started (at most one), completed when it has ended; null before. */
  private final AtomicReference<CompletableFuture<Void>> loadedWhenItPaid = new AtomicReference<>();

  private TokenCounter(EncodingType type, boolean approximate) {
    this(type, approximate, () -> LOADER.load(type));
  }

  /** A counter of its own, loading its encoding with {@code load} (tests: a load that waits). */
  TokenCounter(EncodingType type, boolean approximate, Supplier<Encoding> load) {
    this.type = type;
    this.approximate = approximate;
    this.load = load;
  }

  /** The counter for a model name; null or unknown names get {@code o200k_base}. */
  public static TokenCounter forModel(String model) {
    if (model == null) {
      return O200K;
    }
    String name = model.trim().toLowerCase(Locale.ROOT);
    if (name.startsWith("ft:")) {
      name = name.substring(3);
    }
    int slash = name.lastIndexOf('/');
    if (slash >= 0) {
      name = name.substring(slash + 1); // "openai/gpt-4o", "azure/gpt-4o"
    }
    if (name.contains("claude")) {
      return ANTHROPIC;
    }
    if (inFamily(name, O200K_FAMILIES)) {
      return O200K;
    }
    if (inFamily(name, CL100K_FAMILIES)) {
      return CL100K;
    }
    return O200K;
  }

  /** The Anthropic approximation: cl100k_base counts, totals × 1.2 rounded up. */
  public static TokenCounter anthropic() {
    return ANTHROPIC;
  }

  /**
   * The counters the calls to one provider use, as far as its configuration tells: Anthropic's
   * approximation on the Anthropic API; else {@code o200k_base} (every model not named, and every
   * current OpenAI family) and the counter of each model in {@code models} (the names of its
   * model map). A model the configuration does not name may still need another encoding: it is
   * loaded at that model's first request.
   */
  public static Set<TokenCounter> forProvider(ProviderApi api, Collection<String> models) {
    if (api == ProviderApi.ANTHROPIC) {
      return Set.of(ANTHROPIC);
    }
    Set<TokenCounter> counters = new LinkedHashSet<>();
    counters.add(O200K);
    for (String model : models) {
      counters.add(forModel(model));
    }
    return Collections.unmodifiableSet(counters);
  }

  /**
   * Readies both encodings on a daemon thread, as {@link #warmUp(Collection)} does, so that the
   * first request does not wait for them.
   */
  public static CompletableFuture<Void> warmUp() {
    return warmUp(List.of(O200K, CL100K));
  }

  /**
   * Makes the counters of {@code counters} ready on a daemon thread, so the first request does not
   * wait for them; completed when they are. Each encoding costs a quarter to half a second of CPU:
   * only those needed. For {@code o200k_base} and {@code cl100k_base} the index of its tokens is
   * read and one word counted with it, and the encoding loads once counting without it stops paying
   * ({@link #LOAD_AFTER_TEXTS}), or here when the index cannot be read; any other encoding is
   * loaded here.
   */
  public static CompletableFuture<Void> warmUp(Collection<TokenCounter> counters) {
    List<TokenCounter> toLoad = List.copyOf(counters);
    if (toLoad.isEmpty()) {
      return CompletableFuture.completedFuture(null); // no provider: no thread
    }
    toLoad.forEach(counter -> counter.warmedUp = true);
    CompletableFuture<Void> done = new CompletableFuture<>();
    onThreadOfItsOwn("tollgate-tokenizer-warm-up", done, () -> {
      for (TokenCounter counter : toLoad) {
        PromptVocabulary early = counter.encoding == null ? counter.vocabularyBeforeLoad() : null;
        if (early == null) {
          counter.encoding();
        } else {
          early.countTokensOrdinary("warm up"); // jtokkit's classes: 6 ms less for the first count
        }
      }
    });
    return done;
  }

  /** Runs {@code work} on a daemon thread named {@code name}; {@code done} says how it ended. */
  private static void onThreadOfItsOwn(String name, CompletableFuture<Void> done, Runnable work) {
    Thread thread = new Thread(() -> {
      try {
        work.run();
        done.complete(null);
      } catch (RuntimeException | Error e) {
        done.completeExceptionally(e);
      }
    }, name);
    thread.setDaemon(true);
    thread.start();
  }

  private static boolean inFamily(String name, String[] families) {
    for (String family : families) {
      if (name.startsWith(family)) {
        if (family.endsWith("-") || name.length() == family.length()) {
          return true;
        }
        // "o1" must not claim "o10", nor "gpt-4" "gpt-40"
        if (!Character.isDigit(name.charAt(family.length()))) {
          return true;
        }
      }
    }
    return false;
  }

  /** The encoding's name: {@code o200k_base} or {@code cl100k_base}. */
  public String encodingName() {
    return type.getName();
  }

  /** True for the Anthropic approximation. */
  public boolean approximate() {
    return approximate;
  }

  /** Tokens of {@code text} in this counter's encoding (unscaled). */
  public int count(String text) {
    if (text == null || text.isEmpty()) {
      return 0;
    }
    return recent.count(text);
  }

  /**
   * Tokens of {@code text} (unscaled), counted now and not remembered: for a text seen once, such
   * as a response's output, which would only crowd a chat's history out of the counts kept.
   */
  public int countOnce(String text) {
    if (text == null || text.isEmpty()) {
      return 0;
    }
    return countNow(text);
  }

  /** How many long texts' counts this counter remembers now. */
  int rememberedCounts() {
    return recent.kept();
  }

  /**
   * Counted by the loaded encoding; after a warm-up, until a packed encoding is loaded, by the
   * tokens of the text alone ({@link PromptVocabulary}: the same count, without the load's quarter
   * second of CPU on a JVM that is starting), which loads it once that pays; else the encoding is
   * loaded here.
   */
  private int countNow(String rawText) {
    String text = wellFormed(rawText);
    Encoding loaded = encoding;
    if (loaded == null && warmedUp) {
      PromptVocabulary early = vocabularyBeforeLoad();
      if (early != null) {
        int count = early.countTokensOrdinary(text);
        loadOncePaying(text.length());
        return count;
      }
    }
    return (loaded != null ? loaded : encoding()).countTokensOrdinary(text);
  }

  /**
   * {@code text} with every lone surrogate (JSON's {@code "\ud800"} decodes to one) replaced by
   * U+FFFD, as a UTF-8 encoder would send it: the encodings read well-formed UTF-16 only.
   */
  static String wellFormed(String text) {
    StringBuilder fixed = null;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      boolean pair = Character.isHighSurrogate(c) && i + 1 < text.length()
          && Character.isLowSurrogate(text.charAt(i + 1));
      if (pair) {
        if (fixed != null) {
          fixed.append(c).append(text.charAt(i + 1));
        }
        i++;
      } else if (Character.isSurrogate(c)) {
        if (fixed == null) {
          fixed = new StringBuilder(text.length()).append(text, 0, i);
        }
        fixed.append('\uFFFD');
      } else if (fixed != null) {
        fixed.append(c);
      }
    }
    return fixed == null ? text : fixed.toString();
  }

  /** Starts the load on a thread of its own once {@link #LOAD_AFTER_TEXTS} is reached. */
  private void loadOncePaying(int characters) {
    int texts = textsCountedEarly.incrementAndGet();
    long total = charactersCountedEarly.addAndGet(characters);
    if ((texts >= LOAD_AFTER_TEXTS || total >= LOAD_AFTER_CHARACTERS)
        && loadedWhenItPaid.get() == null) {
      CompletableFuture<Void> loaded = new CompletableFuture<>();
      if (loadedWhenItPaid.compareAndSet(null, loaded)) {
        // a failed load leaves counts to each text's vocabulary: exact, only slower
        onThreadOfItsOwn("tollgate-tokenizer-load", loaded, this::encoding);
      }
    }
  }

  /** Whether counting has started the load (tests). */
  boolean loadStarted() {
    return loadedWhenItPaid.get() != null;
  }

  /** Completed when the load counting started has ended; null before it starts (tests). */
  CompletableFuture<Void> loadedWhenItPaid() {
    return loadedWhenItPaid.get();
  }

  /** A raw count turned into the model's tokens: × 1.2 rounded up for the approximation, else as is. */
  public long scale(long rawTokens) {
    if (!approximate || rawTokens <= 0) {
      return Math.max(0, rawTokens);
    }
    return (rawTokens * APPROXIMATION_NUMERATOR + APPROXIMATION_DENOMINATOR - 1) / APPROXIMATION_DENOMINATOR;
  }

  private Encoding encoding() {
    Encoding e = encoding;
    if (e == null) {
      synchronized (this) { // the warm-up and a first request load it once between them
        e = encoding;
        if (e == null) {
          e = load.get();
          encoding = e;
          BeforeLoad beforeLoad = BeforeLoad.of(type);
          if (beforeLoad != null) {
            beforeLoad.release();
          }
        }
      }
    }
    return e;
  }

  /** The vocabulary this counter counts with until its encoding is loaded; null if it has none. */
  private PromptVocabulary vocabularyBeforeLoad() {
    BeforeLoad beforeLoad = BeforeLoad.of(type);
    return beforeLoad == null ? null : beforeLoad.vocabulary();
  }

  /**
   * A packed encoding's vocabulary of single texts, read at its first use and let go when that
   * encoding is loaded (3 MB for o200k_base, 1.2 MB for cl100k_base); read again should another
   * counter of it count before its own load (the Anthropic approximation and gpt-4 share
   * cl100k_base, each counter loading its own).
   */
  private static final class BeforeLoad {
    /** One per encoding the build packs ({@link EncodingLoader#packed}). */
    private static final Map<EncodingType, BeforeLoad> PACKED = packedEncodings();

    private final EncodingType type;
    private PromptVocabulary vocabulary;
    private boolean readable = true;

    private BeforeLoad(EncodingType type) {
      this.type = type;
    }

    /** Null for an encoding the build does not pack. */
    static BeforeLoad of(EncodingType type) {
      return PACKED.get(type);
    }

    private static Map<EncodingType, BeforeLoad> packedEncodings() {
      Map<EncodingType, BeforeLoad> packed = new EnumMap<>(EncodingType.class);
      for (EncodingType type : EncodingType.values()) {
        if (EncodingLoader.packed(type)) {
          packed.put(type, new BeforeLoad(type));
        }
      }
      return packed;
    }

    synchronized PromptVocabulary vocabulary() {
      if (vocabulary == null && readable) {
        vocabulary = LOADER.promptVocabulary(type);
        readable = vocabulary != null; // the build's files are missing: not tried again
      }
      return vocabulary;
    }

    synchronized void release() {
      vocabulary = null;
    }
  }

  @Override
  public String toString() {
    return approximate ? encodingName() + " x1.2" : encodingName();
  }
}
