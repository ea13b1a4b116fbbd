package io.tollgate.llm;

import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;
import java.time.Duration;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Counts tokens the way a model family's tokenizer does, with jtokkit (a Java port of OpenAI's
 * tiktoken) as published.
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
 * <p>An encoding loads on a daemon thread of Tollgate's, never on a caller's: when a gate is built
 * ({@link #startLoading(Collection)}, the encodings its providers use), else at the first count
 * that needs it. Until it is loaded a text counts as {@link #CHARS_PER_TOKEN_WHILE_LOADING}
 * characters a token, rounded up; the provider's usage corrects the charge at settle, as it does
 * every estimate. {@link #awaitLoaded(Duration)} waits for exact counts.
 *
 * <p>Special tokens ({@code <|endoftext|>}) in text are counted as ordinary text, never rejected.
 * Thread-safe.
 */
public final class TokenCounter {

  public static final String O200K_BASE = "o200k_base";
  public static final String CL100K_BASE = "cl100k_base";

  /**
   * The characters taken for one token while an encoding loads, in every encoding: text in
   * English averages about four characters a token in {@code o200k_base} and {@code cl100k_base}
   * alike (more for code and JSON, fewer for CJK, which the settle corrects). Claude's counts are
   * then scaled by 1.2 as every Claude count is.
   */
  public static final int CHARS_PER_TOKEN_WHILE_LOADING = 4;

  /** The Anthropic scale factor, 1.2, as the fraction 6/5 so the rounding is exact. */
  private static final long APPROXIMATION_NUMERATOR = 6;
  private static final long APPROXIMATION_DENOMINATOR = 5;

  private static final BackgroundEncoding O200K_ENCODING =
      BackgroundEncoding.of(EncodingType.O200K_BASE);
  private static final BackgroundEncoding CL100K_ENCODING =
      BackgroundEncoding.of(EncodingType.CL100K_BASE);

  private static final TokenCounter O200K = new TokenCounter(O200K_ENCODING, false);
  private static final TokenCounter CL100K = new TokenCounter(CL100K_ENCODING, false);
  /** cl100k_base's encoding, shared with {@link #CL100K}: loaded once for both. */
  private static final TokenCounter ANTHROPIC = new TokenCounter(CL100K_ENCODING, true);

  private static final String[] O200K_FAMILIES = {
    "gpt-4o", "gpt-4.1", "gpt-4.5", "gpt-5", "o1", "o3", "o4", "chatgpt-", "gpt-oss", "codex-",
    "gpt-image", "gpt-realtime", "gpt-audio", "computer-use", "omni-moderation"
  };
  private static final String[] CL100K_FAMILIES = {
    "gpt-4", "gpt-3.5", "gpt-35", "text-embedding-3", "text-embedding-ada-002", "davinci-002",
    "babbage-002"
  };

  private final BackgroundEncoding encoding;
  private final boolean approximate;

  /** A counter over {@code encoding} (tests: an encoding whose load waits or fails). */
  TokenCounter(BackgroundEncoding encoding, boolean approximate) {
    this.encoding = encoding;
    this.approximate = approximate;
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
   * model map). A model the configuration does not name may still need another encoding: its
   * load starts at that model's first request, which is estimated.
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
   * Starts loading both encodings on Tollgate's tokenizer thread, as {@link
   * #startLoading(Collection)} does; for a front end that cannot tell which its calls will use.
   */
  public static CompletableFuture<Void> startLoading() {
    return startLoading(List.of(O200K, CL100K));
  }

  /**
   * Starts loading the encodings of {@code counters} on Tollgate's tokenizer thread, a daemon, one
   * after the other: only those needed, each costing a fraction of a second of CPU and tens of
   * megabytes of heap. Returns at once; the future completes when all are loaded, exceptionally if
   * one could not be (its counts stay estimates).
   */
  public static CompletableFuture<Void> startLoading(Collection<TokenCounter> counters) {
    return CompletableFuture.allOf(counters.stream()
        .map(counter -> counter.encoding.load())
        .distinct()
        .toArray(CompletableFuture[]::new));
  }

  /**
   * Waits at most {@code timeout} for both encodings to load, starting their loads if need be:
   * for an app (or a test) that wants exact counts from its first call.
   *
   * @throws IllegalStateException if they are not loaded in time, or one could not be
   */
  public static void awaitLoaded(Duration timeout) {
    try {
      startLoading().get(timeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      throw new IllegalStateException("the tokenizer's encodings were not loaded within " + timeout, e);
    } catch (ExecutionException e) {
      throw new IllegalStateException("an encoding could not be loaded: " + e.getCause(), e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while the tokenizer's encodings loaded", e);
    }
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
    return encoding.name();
  }

  /** True for the Anthropic approximation. */
  public boolean approximate() {
    return approximate;
  }

  /** True once the encoding is loaded and counts are exact; starts its load if it had not. */
  public boolean loaded() {
    return encoding.now() != null;
  }

  /**
   * Tokens of {@code text} in this counter's encoding (unscaled); while the encoding loads,
   * ⌈characters / {@value #CHARS_PER_TOKEN_WHILE_LOADING}⌉, the load started if it had not.
   */
  public int count(String text) {
    if (text == null || text.isEmpty()) {
      return 0;
    }
    Encoding loaded = encoding.now();
    if (loaded == null) {
      return (text.length() + CHARS_PER_TOKEN_WHILE_LOADING - 1) / CHARS_PER_TOKEN_WHILE_LOADING;
    }
    return loaded.countTokensOrdinary(wellFormed(text));
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

  /** A raw count turned into the model's tokens: × 1.2 rounded up for the approximation, else as is. */
  public long scale(long rawTokens) {
    if (!approximate || rawTokens <= 0) {
      return Math.max(0, rawTokens);
    }
    return (rawTokens * APPROXIMATION_NUMERATOR + APPROXIMATION_DENOMINATOR - 1) / APPROXIMATION_DENOMINATOR;
  }

  @Override
  public String toString() {
    return approximate ? encodingName() + " x1.2" : encodingName();
  }
}
