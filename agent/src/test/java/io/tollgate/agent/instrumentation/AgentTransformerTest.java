package io.tollgate.agent.instrumentation;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.lang.instrument.ClassDefinition;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;

/**
 * The transformer {@code premain} registers: which classes it changes, at once, and how it gives
 * them back when the agent does not start. The JVM's side is a recording stand-in (it only keeps
 * what the transformer asks of it); the classes are real class files.
 */
class AgentTransformerTest {

  /** A type an instrumentation names: its class file is what the JVM would hand over. */
  static final class Watched {}

  private static final String WATCHED = Watched.class.getName().replace('.', '/');
  private static final List<InstrumentationModule> MODULES = List.of(new WatchedModule());

  private final RecordingJvm jvm = new RecordingJvm();
  private final AgentTransformer transformer = AgentTransformer.register(jvm, MODULES);

  @Test
  void registersItselfAsTheOneRetransformingTransformer() {
    assertThat(jvm.transformers).containsExactly(Map.entry(transformer, true));
  }

  @Test
  void letsEveryOtherClassPassAtOnce() throws Exception {
    assertThat(transformer.transform(loader(), "java/lang/String", null, null, new byte[0])).isNull();
    assertThat(transformer.transform(loader(), null, null, null, new byte[0])).isNull();
  }

  @Test
  void transformsAWatchedClassAsItLoadsWithoutWaitingForTheStart() throws Exception {
    byte[] original = classFile();

    byte[] transformed = transformer.transform(loader(), WATCHED, null, null, original);

    assertThat(transformed).as("rewritten by the weaver (no hooks: the same class)")
        .isNotNull().isNotSameAs(original);
    assertThat(jvm.retransformed).isEmpty();
  }

  @Test
  void theWatchedClassesLoadedBeforeItAreRetransformedWhenTheStartCompletes() {
    jvm.loaded = new Class<?>[] {String.class, Watched.class, AgentTransformerTest.class};

    transformer.retransformLoaded();

    assertThat(jvm.retransformed).containsExactly(Watched.class);
  }

  @Test
  void aWatchedClassWovenAsItLoadedIsNotWovenAgainWhenTheStartCompletes() throws Exception {
    assertThat(transformer.transform(loader(), WATCHED, null, null, classFile())).isNotNull();
    jvm.loaded = new Class<?>[] {String.class, Watched.class};

    transformer.retransformLoaded();

    assertThat(jvm.retransformed).isEmpty();
  }

  @Test
  void aWatchedClassWovenInAnotherLoaderIsStillRetransformedInThisOne() throws Exception {
    ClassLoader other = new ClassLoader(loader()) {};
    assertThat(transformer.transform(other, WATCHED, null, null, classFile())).isNotNull();
    jvm.loaded = new Class<?>[] {Watched.class};

    transformer.retransformLoaded();

    assertThat(jvm.retransformed).containsExactly(Watched.class);
  }

  @Test
  void whenTheAgentDoesNotStartItTakesItselfOutAndGivesTheWatchedClassesBackTheirCode()
      throws Exception {
    jvm.loaded = new Class<?>[] {String.class, Watched.class};

    transformer.remove();

    assertThat(jvm.transformers).isEmpty();
    assertThat(jvm.retransformed).as("retransformed without it: their own code again")
        .containsExactly(Watched.class);
    assertThat(transformer.transform(loader(), WATCHED, null, null, classFile())).isNull();
  }

  private static ClassLoader loader() {
    return AgentTransformerTest.class.getClassLoader();
  }

  private static byte[] classFile() throws Exception {
    try (InputStream in = loader().getResourceAsStream(WATCHED + ".class")) {
      return in.readAllBytes();
    }
  }

  /** Names {@link Watched}, with no hooks: transforming it rewrites its class file unchanged. */
  private static final class WatchedModule implements InstrumentationModule {
    @Override
    public String name() {
      return "watched";
    }

    @Override
    public List<TypeInstrumentation> typeInstrumentations() {
      return List.of(new TypeInstrumentation() {
        @Override
        public List<String> typeNames() {
          return List.of(Watched.class.getName());
        }

        @Override
        public void transform(Hooks hooks) {}
      });
    }

    @Override
    public List<String> helperClassNames() {
      return List.of();
    }
  }

  /** What the transformer asks of the JVM, recorded; the rest is not for it. */
  private static final class RecordingJvm implements Instrumentation {
    final Map<ClassFileTransformer, Boolean> transformers = new java.util.LinkedHashMap<>();
    final List<Class<?>> retransformed = new ArrayList<>();
    Class<?>[] loaded = new Class<?>[0];

    @Override
    public void addTransformer(ClassFileTransformer transformer, boolean canRetransform) {
      transformers.put(transformer, canRetransform);
    }

    @Override
    public void addTransformer(ClassFileTransformer transformer) {
      addTransformer(transformer, false);
    }

    @Override
    public boolean removeTransformer(ClassFileTransformer transformer) {
      return transformers.remove(transformer) != null;
    }

    @Override
    public Class<?>[] getAllLoadedClasses() {
      return loaded;
    }

    @Override
    public boolean isModifiableClass(Class<?> type) {
      return true;
    }

    @Override
    public void retransformClasses(Class<?>... classes) {
      retransformed.addAll(List.of(classes));
    }

    @Override
    public boolean isRetransformClassesSupported() {
      return true;
    }

    @Override
    public boolean isRedefineClassesSupported() {
      return false;
    }

    @Override
    public void redefineClasses(ClassDefinition... definitions) {
      throw new UnsupportedOperationException();
    }

    @Override
    public Class<?>[] getInitiatedClasses(ClassLoader loader) {
      throw new UnsupportedOperationException();
    }

    @Override
    public long getObjectSize(Object object) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void appendToBootstrapClassLoaderSearch(JarFile jar) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void appendToSystemClassLoaderSearch(JarFile jar) {
      throw new UnsupportedOperationException();
    }

    @Override
    public boolean isNativeMethodPrefixSupported() {
      return false;
    }

    @Override
    public void setNativeMethodPrefix(ClassFileTransformer transformer, String prefix) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void redefineModule(Module module, Set<Module> extraReads,
        Map<String, Set<Module>> extraExports, Map<String, Set<Module>> extraOpens,
        Set<Class<?>> extraUses, Map<Class<?>, List<Class<?>>> extraProvides) {
      throw new UnsupportedOperationException();
    }

    @Override
    public boolean isModifiableModule(Module module) {
      return false;
    }
  }
}
