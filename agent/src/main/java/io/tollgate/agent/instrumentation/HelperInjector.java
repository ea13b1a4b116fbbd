package io.tollgate.agent.instrumentation;

import java.io.IOException;
import java.io.InputStream;
import java.lang.instrument.Instrumentation;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.security.ProtectionDomain;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;

/**
 * Defines a module's helper classes in a library's class loader, once per loader. The helpers are
 * ordinary class files of the agent jar; defining them directly in the target loader (not loading
 * them through it) makes them link against that loader's copy of the library, while the Tollgate
 * core they call is still found in the agent jar through the loader's parents.
 *
 * <p>{@code ClassLoader.defineClass} is called by reflection, {@code java.lang} being opened to the
 * agent through {@link Instrumentation#redefineModule}: no {@code sun.misc.Unsafe}, which JDK 24+
 * warns about on the app's stderr.
 */
final class HelperInjector {

  private static volatile Methods methods;

  private final Instrumentation instrumentation;
  private final String module;
  private final List<String> classNames;
  private final Map<ClassLoader, Boolean> injected = Collections.synchronizedMap(new WeakHashMap<>());
  private volatile Map<String, byte[]> bytes;

  HelperInjector(Instrumentation instrumentation, String module, List<String> classNames) {
    this.instrumentation = instrumentation;
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
      Methods reflective = methods(instrumentation);
      for (Map.Entry<String, byte[]> helper : classBytes().entrySet()) {
        try {
          if (reflective.findLoadedClass.invoke(loader, helper.getKey()) == null) {
            byte[] code = helper.getValue();
            reflective.defineClass.invoke(loader, helper.getKey(), code, 0, code.length,
                HelperInjector.class.getProtectionDomain());
          }
        } catch (IllegalAccessException | InvocationTargetException e) {
          Throwable cause = e instanceof InvocationTargetException ? e.getCause() : e;
          throw new IllegalStateException("cannot define " + helper.getKey() + " in " + loader, cause);
        }
      }
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

  private static Methods methods(Instrumentation instrumentation) {
    Methods found = methods;
    if (found == null) {
      Module javaBase = Object.class.getModule();
      Module agent = HelperInjector.class.getModule();
      if (!javaBase.isOpen("java.lang", agent)) {
        instrumentation.redefineModule(javaBase, Set.of(), Map.of(),
            Map.of("java.lang", Set.of(agent)), Set.of(), Map.of());
      }
      try {
        Method define = ClassLoader.class.getDeclaredMethod("defineClass",
            String.class, byte[].class, int.class, int.class, ProtectionDomain.class);
        Method findLoaded = ClassLoader.class.getDeclaredMethod("findLoadedClass", String.class);
        define.setAccessible(true);
        findLoaded.setAccessible(true);
        found = new Methods(define, findLoaded);
      } catch (NoSuchMethodException e) {
        throw new IllegalStateException(e);
      }
      methods = found;
    }
    return found;
  }

  private record Methods(Method defineClass, Method findLoadedClass) {}
}
