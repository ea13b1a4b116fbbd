package io.tollgate.agent.instrumentation;

import io.tollgate.agent.InternalFailures;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The agent's one transformer, registered by {@code premain} before anything else is done. It
 * looks at class names only: every class passes untouched, except the types an instrumentation
 * names (OkHttp's, Apache HttpClient's, the JDK's {@code HttpClientFacade}), which get their hooks
 * as they load, while the agent is still starting: the calls through them wait for the start
 * ({@link io.tollgate.agent.AgentGates}), not the classes. Nothing waits in class loading, where
 * the app's thread may hold locks.
 *
 * <p>Types loaded before the transformer existed (by another agent's {@code premain}, or before a
 * late attach) are retransformed when the start completes ({@link #retransformLoaded}); those it
 * wove as they loaded are not woven again. When the agent turns out to be off or disabled, {@link
 * #remove} takes the transformer out and retransforms the types it changed, so their code is the
 * app's own again.
 */
public final class AgentTransformer implements ClassFileTransformer {

  private final Instrumentation instrumentation;
  private final HookTransformer hooks;
  private volatile boolean removed;
  /**
   * The types woven as they loaded, by internal name per class loader: retransforming them when the
   * start completes would weave them again and make the JVM redefine classes the app is running.
   */
  private final Map<ClassLoader, Set<String>> wovenAtLoad =
      Collections.synchronizedMap(new WeakHashMap<>());

  private AgentTransformer(Instrumentation instrumentation, HookTransformer hooks) {
    this.instrumentation = instrumentation;
    this.hooks = hooks;
  }

  /**
   * Registers the transformer for the types of {@code modules}, each module's hooks made when the
   * first of its types loads (an app that never loads, say, the JDK's {@code HttpClient} never
   * pays for that module's set-up).
   */
  public static AgentTransformer register(Instrumentation instrumentation,
      List<InstrumentationModule> modules) {
    AgentTransformer transformer = new AgentTransformer(instrumentation,
        HookTransformer.of(instrumentation, modules));
    instrumentation.addTransformer(transformer, true);
    return transformer;
  }

  /** Retransforms the instrumented types that were loaded before the transformer was registered. */
  public void retransformLoaded() {
    List<Class<?>> notWoven = new ArrayList<>();
    for (Class<?> type : loadedWatchedTypes()) {
      Set<String> woven = wovenAtLoad.get(type.getClassLoader());
      if (woven == null || !woven.contains(type.getName().replace('.', '/'))) {
        notWoven.add(type);
      }
    }
    retransform(notWoven);
  }

  /**
   * The agent is not running: the transformer is taken out and the instrumented types loaded so
   * far are retransformed without it, back to their own code. (A client built meanwhile keeps the
   * interceptor its builder added; with no gate it lets every call through untouched.)
   */
  public void remove() {
    removed = true;
    instrumentation.removeTransformer(this);
    retransform(loadedWatchedTypes());
  }

  @Override
  public byte[] transform(ClassLoader loader, String internalName, Class<?> classBeingRedefined,
      ProtectionDomain protectionDomain, byte[] classFile) {
    if (removed) {
      return null;
    }
    byte[] woven = hooks.transform(loader, internalName, classBeingRedefined, protectionDomain,
        classFile);
    if (woven != null && classBeingRedefined == null) {
      wovenAtLoad.computeIfAbsent(loader, l -> ConcurrentHashMap.newKeySet()).add(internalName);
    }
    return woven;
  }

  private void retransform(List<Class<?>> types) {
    for (Class<?> type : types) {
      try {
        instrumentation.retransformClasses(type);
      } catch (Exception | LinkageError e) {
        InternalFailures.record("retransforming loaded classes", e);
      }
    }
  }

  private List<Class<?>> loadedWatchedTypes() {
    List<Class<?>> loaded = new ArrayList<>();
    for (Class<?> type : instrumentation.getAllLoadedClasses()) {
      if (hooks.instruments(type.getName().replace('.', '/')) && instrumentation.isModifiableClass(type)) {
        loaded.add(type);
      }
    }
    return loaded;
  }
}
