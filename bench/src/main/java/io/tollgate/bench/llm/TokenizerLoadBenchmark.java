package io.tollgate.bench.llm;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;
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
 * jtokkit loading {@code o200k_base} or {@code cl100k_base} once in a fresh JVM and counting one
 * prompt with it: what Tollgate's tokenizer thread does while the first calls are estimated.
 * Single shot per fork: the cold cost, JIT and GC included, is the point.
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
  public int jtokkitText() {
    return firstCount(Encodings.newLazyEncodingRegistry().getEncoding(encoding));
  }

  private static int firstCount(Encoding loaded) {
    return loaded.countTokensOrdinary("Say hello to the benchmark in five words.");
  }
}
