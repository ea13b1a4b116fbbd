package io.tollgate.agent.instrumentation;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.IllegalClassFormatException;
import java.security.ProtectionDomain;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The transformer {@code premain} registers: only the named types reach ByteBuddy's, and one that
 * loads before that transformer is built waits for it.
 */
class HeldTypesTest {

  private static final byte[] CLASS_FILE = {1, 2, 3};
  private static final byte[] TRANSFORMED = {4, 5, 6};

  private final List<String> seen = new CopyOnWriteArrayList<>();
  /** Stands in for ByteBuddy's transformer: records what it is handed. */
  private final ClassFileTransformer built = new ClassFileTransformer() {
    @Override
    public byte[] transform(Module module, ClassLoader loader, String className,
        Class<?> redefined, ProtectionDomain domain, byte[] classFile) {
      seen.add(className);
      return TRANSFORMED;
    }
  };

  @Test
  void aTypeNotNamedPassesWithoutWaitingForTheBuild() throws Exception {
    HeldTypes held = new HeldTypes(Set.of("okhttp3.RealCall"));

    assertThat(transform(held, "com/example/Service")).isNull();
    assertThat(transform(held, null)).isNull();
    held.ready(built);
    assertThat(transform(held, "okhttp3/RealCallX")).isNull();
    assertThat(seen).isEmpty();
  }

  @Test
  void aNamedTypeThatLoadsBeforeTheBuildWaitsForItAndGetsItsAdvice() throws Exception {
    HeldTypes held = new HeldTypes(Set.of("okhttp3.RealCall"));

    CompletableFuture<byte[]> loading =
        CompletableFuture.supplyAsync(() -> transform(held, "okhttp3/RealCall"));
    Thread.sleep(200);
    assertThat(loading).isNotDone();
    held.ready(built);

    assertThat(loading.get(5, TimeUnit.SECONDS)).containsExactly(TRANSFORMED);
    assertThat(seen).containsExactly("okhttp3/RealCall");
  }

  @Test
  void theBuildingThreadDoesNotWaitForItself() {
    HeldTypes held = new HeldTypes(Set.of("okhttp3.RealCall"));
    held.building(Thread.currentThread());

    assertThat(transform(held, "okhttp3/RealCall")).isNull();
    held.ready(built);
    assertThat(transform(held, "okhttp3/RealCall")).containsExactly(TRANSFORMED);
  }

  @Test
  void aBuildThatFailedLeavesNamedTypesAsTheyAre() {
    HeldTypes held = new HeldTypes(Set.of("okhttp3.RealCall"));
    held.ready(null);

    assertThat(transform(held, "okhttp3/RealCall")).isNull();
    assertThat(seen).isEmpty();
  }

  private static byte[] transform(HeldTypes held, String className) {
    try {
      return held.transform(null, null, className, null, null, CLASS_FILE);
    } catch (IllegalClassFormatException e) {
      throw new IllegalStateException(e);
    }
  }
}
