package io.tollgate.agent.instrumentation;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.lang.instrument.ClassDefinition;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;

/**
 * The transformer {@code premain} registers before the agent has started: which classes wait for
 * the start, and what they get once it is decided. The JVM's side is a recording stand-in (it
 * only keeps what the transformer asks of it); the classes are real class files.
 */
class DeferredTransformerTest {

  /** A type an instrumentation names: its class file is what the JVM would hand over. */
  static final class Watched {}

  private static final String WATCHED = Watched.class.getName().replace('.', '/');
  private static final List<InstrumentationModule> MODULES = List.of(new WatchedModule());

  private final RecordingJvm jvm = new RecordingJvm();
  private final List<Thread> threads = new ArrayList<>();
  private final DeferredTransformer transformer = DeferredTransformer.register(jvm, MODULES, jvm.log::add);

  @Test
  void registersItselfAsTheOneRetransformingTransformer() {
    assertThat(jvm.transformers).containsExactly(Map.entry(transformer, true));
  }

  @Test
  void letsEveryOtherClassPassAtOnceWhileTheAgentStarts() throws Exception {
    assertThat(transformer.transform(loader(), "java/lang/String", null, null, new byte[0])).isNull();
    assertThat(transformer.transform(loader(), null, null, null, new byte[0])).isNull();
  }

  @Test
  void aWatchedClassWaitsForTheStartThenIsTransformed() throws Exception {
    CompletableFuture<byte[]> loading = loadOnAnotherThread();
    Thread loader = awaitWaiting(loading);

    assertThat(loading).isNotDone();
    transformer.activate(MODULES);
    assertThat(loading).as("waits until released, after the start-up line").isNotDone();
    transformer.release();

    assertThat(loading.get(10, TimeUnit.SECONDS)).as("transformed").isNotNull();
    loader.join();
    assertThat(jvm.log).isEmpty();
  }

  @Test
  void aWatchedClassGoesOnUntouchedWhenTheAgentDoesNotStart() throws Exception {
    CompletableFuture<byte[]> loading = loadOnAnotherThread();
    awaitWaiting(loading);

    transformer.remove();

    assertThat(loading.get(10, TimeUnit.SECONDS)).isNull();
    assertThat(jvm.transformers).isEmpty();
  }

  @Test
  void theStartsOwnThreadNeverWaitsForItself() throws Exception {
    transformer.startingOn(Thread.currentThread());

    assertThat(transformer.transform(loader(), WATCHED, null, null, classFile())).isNull();
  }

  @Test
  void theWatchedClassesLoadedBeforeTheStartAreRetransformed() {
    jvm.loaded = new Class<?>[] {String.class, Watched.class, DeferredTransformerTest.class};

    transformer.activate(MODULES);

    assertThat(jvm.retransformed).containsExactly(Watched.class);
  }

  @Test
  void onceReleasedAWatchedClassIsTransformedWithoutWaiting() throws Exception {
    transformer.activate(MODULES);
    transformer.release();

    assertThat(transformer.transform(loader(), WATCHED, null, null, classFile())).isNotNull();
  }

  private CompletableFuture<byte[]> loadOnAnotherThread() {
    CompletableFuture<byte[]> result = new CompletableFuture<>();
    Thread thread = new Thread(() -> {
      try {
        result.complete(transformer.transform(loader(), WATCHED, null, null, classFile()));
      } catch (Exception e) {
        result.completeExceptionally(e);
      }
    }, "app-loading-a-client");
    thread.setDaemon(true);
    thread.start();
    threads.add(thread);
    return result;
  }

  /** Until the loading thread is parked in the transformer's wait (a state, not a time). */
  private Thread awaitWaiting(CompletableFuture<byte[]> loading) {
    Thread thread = threads.get(threads.size() - 1);
    while (!loading.isDone() && !(thread.getState() == Thread.State.TIMED_WAITING
        && Arrays.stream(thread.getStackTrace()).anyMatch(frame -> frame.getMethodName().equals("awaitStart")))) {
      Thread.onSpinWait();
    }
    return thread;
  }

  private static ClassLoader loader() {
    return DeferredTransformerTest.class.getClassLoader();
  }

  private static byte[] classFile() throws Exception {
    try (InputStream in = loader().getResourceAsStream(WATCHED + ".class")) {
      return in.readAllBytes();
    }
  }

  /** Names {@link Watched}, with no advice: transforming it rewrites its class file unchanged. */
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
        public void transform(Advices advices) {}
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
    final List<String> log = new java.util.concurrent.CopyOnWriteArrayList<>();
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
