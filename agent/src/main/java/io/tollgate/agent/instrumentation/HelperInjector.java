package io.tollgate.agent.instrumentation;

import java.io.IOException;
import java.io.InputStream;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import net.bytebuddy.dynamic.loading.ClassInjector;

/**
 * Defines a module's helper classes in a library's class loader, once per loader. The helpers are
 * ordinary class files of the agent jar; defining them directly in the target loader (not loading
 * them through it) makes them link against that loader's copy of the library, while the Tollgate
 * core they call is still found in the agent jar through the loader's parents.
 */
final class HelperInjector {

  private final String module;
  private final List<String> classNames;
  private final Map<ClassLoader, Boolean> injected = Collections.synchronizedMap(new WeakHashMap<>());
  private volatile Map<String, byte[]> bytes;

  HelperInjector(String module, List<String> classNames) {
    this.module = module;
    this.classNames = List.copyOf(classNames);
  }

  /**
   * @throws IllegalStateException when the helpers cannot be defined: the type is then left
   *     untransformed
   */
  void injectInto(ClassLoader loader) {
    if (loader == null) {
      throw new IllegalStateException(module + " is on the boot class path: not supported");
    }
    if (classNames.isEmpty() || injected.containsKey(loader)) {
      return;
    }
    synchronized (injected) {
      if (injected.containsKey(loader)) {
        return;
      }
      ClassInjector injector = ClassInjector.UsingReflection.isAvailable()
          ? new ClassInjector.UsingReflection(loader)
          : new ClassInjector.UsingUnsafe(loader);
      injector.injectRaw(classBytes());
      injected.put(loader, Boolean.TRUE);
    }
  }

  private Map<String, byte[]> classBytes() {
    Map<String, byte[]> loaded = bytes;
    if (loaded == null) {
      loaded = new LinkedHashMap<>();
      ClassLoader agent = HelperInjector.class.getClassLoader();
      for (String name : classNames) {
        String resource = name.replace('.', '/') + ".class";
        try (InputStream in = agent.getResourceAsStream(resource)) {
          if (in == null) {
            throw new IllegalStateException("helper " + resource + " is missing from the agent jar");
          }
          loaded.put(name, in.readAllBytes());
        } catch (IOException e) {
          throw new IllegalStateException("helper " + resource + " cannot be read", e);
        }
      }
      bytes = loaded;
    }
    return loaded;
  }
}
