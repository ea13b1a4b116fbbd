package io.tollgate.bench.llm;

import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;
import io.tollgate.llm.internal.EncodingLoader;
import io.tollgate.llm.internal.PromptVocabulary;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A count of {@code o200k_base} before the encoding is loaded (each text's own vocabulary, {@link
 * PromptVocabulary}) against one with the loaded encoding: what {@code TokenCounter}'s threshold
 * for loading it weighs. Warm: the cost of every count after the first.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@State(Scope.Benchmark)
public class EarlyCountBenchmark {

  private static final String PROMPT = "Say hello to the benchmark in five words.";
  private static final String[] WORDS = {"the", "benchmark", "tokenizer", "counts", "Hello,",
    "world!", "\n", "résumé", "42", "function(x)", "{\"a\":1}", "Tollgate", "limits", "requests"};

  /** Characters of the text: the benchmark's prompt (41), or words drawn with a fixed seed. */
  @Param({"41", "1000", "10000"})
  int characters;

  private String text;
  private PromptVocabulary vocabulary;
  private Encoding loaded;

  @Setup
  public void setUp() {
    text = characters == PROMPT.length() ? PROMPT : words(characters);
    EncodingLoader loader = new EncodingLoader();
    vocabulary = loader.promptVocabulary(EncodingType.O200K_BASE);
    loaded = loader.load(EncodingType.O200K_BASE);
    if (vocabulary.countTokensOrdinary(text) != loaded.countTokensOrdinary(text)) {
      throw new IllegalStateException("the two counts differ for " + characters + " characters");
    }
  }

  @Benchmark
  public int withItsVocabulary() {
    return vocabulary.countTokensOrdinary(text);
  }

  @Benchmark
  public int withTheLoadedEncoding() {
    return loaded.countTokensOrdinary(text);
  }

  private static String words(int characters) {
    Random random = new Random(1);
    StringBuilder text = new StringBuilder(characters + 16);
    while (text.length() < characters) {
      text.append(WORDS[random.nextInt(WORDS.length)]).append(' ');
    }
    return text.substring(0, characters);
  }
}
