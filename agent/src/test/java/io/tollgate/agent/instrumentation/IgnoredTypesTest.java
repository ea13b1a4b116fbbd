package io.tollgate.agent.instrumentation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.pool.TypePool;
import org.junit.jupiter.api.Test;

class IgnoredTypesTest {

  /**
   * Types described the way ByteBuddy describes a class being loaded (a lazy pool), but with no
   * class file to read: anything beyond the name fails.
   */
  private final TypePool withoutClassFiles = new TypePool.Default.WithLazyResolution(
      new TypePool.CacheProvider.Simple(), ClassFileLocator.NoOp.INSTANCE,
      TypePool.Default.ReaderMode.FAST);

  @Test
  void decidesByTheNameAloneWithoutReadingTheClassFile() {
    TypeDescription okhttp = withoutClassFiles.describe("okhttp3.OkHttpClient$Builder").resolve();
    TypeDescription own = withoutClassFiles.describe("io.tollgate.agent.AgentGates").resolve();
    TypeDescription otherAgent = withoutClassFiles
        .describe("io.opentelemetry.javaagent.bootstrap.AgentClassLoader").resolve();
    assertThatThrownBy(okhttp::getModifiers).as("the class file is not there to read")
        .isInstanceOf(IllegalStateException.class);

    assertThat(IgnoredTypes.matcher().matches(okhttp)).isFalse();
    assertThat(IgnoredTypes.matcher().matches(own)).isTrue();
    assertThat(IgnoredTypes.matcher().matches(otherAgent)).isTrue();
  }
}
