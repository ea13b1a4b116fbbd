package io.tollgate.agent.instrumentation;

import io.tollgate.agent.InternalFailures;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The agent's one transformer, registered by {@code premain} before anything else is done, so that
 * the configuration, the gate and the advice can be prepared on a thread of their own while the
 * app starts. It looks at class names only: every class passes untouched, except the types an
 * instrumentation names (OkHttp's, Apache HttpClient's, the JDK's {@code HttpClientFacade}). Such
 * a type loaded before the agent has started waits for it, at most {@link #MAX_WAIT}, and is then
 * transformed; so no client the app builds, however early, escapes the agent.
 *
 * <p>When the start completes, the types already loaded (before {@code premain}, by the start's
 * own thread, or after a wait that ran out) are retransformed. When the agent turns out to be off
 * or disabled, this transformer is removed and every waiting class goes on as it was.
 *
 * <p>Deadlocks: a thread waiting here is loading a class and may hold locks (the class's loading
 * lock, a class initialisation the app started). The start's own thread never waits here, and it
 * loads no class of the app's; the bound on the wait is the last resort.
 */
public final class DeferredTransformer implements ClassFileTransformer {

  /** How long a class waits for the agent to finish starting. */
  public static final Duration MAX_WAIT = Duration.ofSeconds(30);

  private final Instrumentation instrumentation;
  private final Set<String> watched;
  private final Consumer<String> log;
  private final CountDownLatch decided = new CountDownLatch(1);
  private volatile AdviceTransformer active;
  private volatile Thread starter;
  private volatile boolean waitRanOut;
  private final Set<String> waited = ConcurrentHashMap.newKeySet();

  private DeferredTransformer(Instrumentation instrumentation, Set<String> watched,
      Consumer<String> log) {
    this.instrumentation = instrumentation;
    this.watched = watched;
    this.log = log;
  }

  /**
   * Registers the transformer for the types of {@code modules}; until {@link #activate} or
   * {@link #remove}, those types wait.
   *
   * @param log where the one line about a wait that ran out goes
   */
  public static DeferredTransformer register(Instrumentation instrumentation,
      List<InstrumentationModule> modules, Consumer<String> log) {
    Set<String> names = new HashSet<>();
    for (InstrumentationModule module : modules) {
      for (TypeInstrumentation type : module.typeInstrumentations()) {
        for (String name : type.typeNames()) {
          names.add(name.replace('.', '/'));
        }
      }
    }
    DeferredTransformer transformer = new DeferredTransformer(instrumentation, Set.copyOf(names), log);
    instrumentation.addTransformer(transformer, true);
    return transformer;
  }

  /** The thread that completes the start: it must never wait for itself. */
  public void startingOn(Thread thread) {
    starter = thread;
  }

  /**
   * Applies the advice of {@code modules} from now on (each module's set-up made when the first of
   * its types is transformed): to the types already loaded (retransformed, each failure counted)
   * and to every type loaded later. Those still wait until {@link #release()}: so the start-up
   * line comes before anything a call through them may print.
   */
  public void activate(List<InstrumentationModule> modules) {
    active = AdviceTransformer.of(instrumentation, modules);
    for (Class<?> type : loadedWatchedTypes()) {
      try {
        instrumentation.retransformClasses(type);
      } catch (Exception | LinkageError e) {
        InternalFailures.record("retransforming loaded classes", e);
      }
    }
  }

  /** Lets the classes waiting for the start go on: transformed if {@link #activate}d. */
  public void release() {
    decided.countDown();
  }

  /** The agent is not running: no type is transformed, and none waits. */
  public void remove() {
    instrumentation.removeTransformer(this);
    active = null;
    decided.countDown();
  }

  @Override
  public byte[] transform(ClassLoader loader, String internalName, Class<?> classBeingRedefined,
      ProtectionDomain protectionDomain, byte[] classFile) {
    if (internalName == null || !watched.contains(internalName)) {
      return null;
    }
    if (decided.getCount() > 0 && Thread.currentThread() != starter) {
      awaitStart(internalName);
    }
    AdviceTransformer advice = active;
    return advice == null ? null
        : advice.transform(loader, internalName, classBeingRedefined, protectionDomain, classFile);
  }

  /** The binary names of the classes that have waited for the start (for the debug line). */
  public Set<String> waited() {
    return Set.copyOf(waited);
  }

  private void awaitStart(String internalName) {
    waited.add(internalName.replace('/', '.'));
    try {
      if (!decided.await(MAX_WAIT.toMillis(), TimeUnit.MILLISECONDS) && !waitRanOut) {
        waitRanOut = true;
        log.accept(internalName.replace('/', '.') + " was loaded while the agent was starting and "
            + "waited " + MAX_WAIT.toSeconds() + " s for it: loaded as it is, instrumented when the "
            + "agent has started");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private List<Class<?>> loadedWatchedTypes() {
    List<Class<?>> loaded = new ArrayList<>();
    for (Class<?> type : instrumentation.getAllLoadedClasses()) {
      if (watched.contains(type.getName().replace('.', '/')) && instrumentation.isModifiableClass(type)) {
        loaded.add(type);
      }
    }
    return loaded;
  }
}
