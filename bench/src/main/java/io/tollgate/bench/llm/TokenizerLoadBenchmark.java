package io.tollgate.bench.llm;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;
import io.tollgate.llm.internal.EncodingLoader;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Loading {@code o200k_base} or {@code cl100k_base} once in a fresh JVM: from the ranks packed at
 * build time ({@link EncodingLoader}) against jtokkit's own loading of its tiktoken text; and, for
 * scale, what a JVM does before it loads it (the index of its tokens read, one text counted with
 * it). Single shot per fork: the cold cost, JIT and GC included, is the point.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 0)
@Measurement(iterations = 1)
@Fork(20)
@State(Scope.Benchmark)
public class TokenizerLoadBenchmark {

  @Param({"O200K_BASE", "CL100K_BASE"})
  public EncodingType encoding;

  @Benchmark
  public int packedRanks() {
    return firstCount(new EncodingLoader().load(encoding));
  }

  /** What a warm-up does in its place now: the index of the tokens read, one word counted with it. */
  @Benchmark
  public int tokenIndexAndOneWord() {
    return new EncodingLoader().promptVocabulary(encoding).countTokensOrdinary("warm up");
  }

  /** The first prompt counted without the encoding, the index read first: a first request's count. */
  @Benchmark
  public int tokenIndexAndFirstPrompt() {
    return new EncodingLoader().promptVocabulary(encoding)
        .countTokensOrdinary("Say hello to the benchmark in five words.");
  }

  @Benchmark
  public int jtokkitText() {
    return firstCount(Encodings.newLazyEncodingRegistry().getEncoding(encoding));
  }

  private static int firstCount(Encoding loaded) {
    return loaded.countTokensOrdinary("Say hello to the benchmark in five words.");
  }
}
