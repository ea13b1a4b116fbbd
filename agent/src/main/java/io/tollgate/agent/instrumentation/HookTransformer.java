package io.tollgate.agent.instrumentation;

import io.tollgate.agent.InternalFailures;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Weaves the modules' hooks into the class files of their types ({@link HookWeaver}), and leaves
 * every other class alone. The class file is read and written once with ASM and nothing is added
 * to the class, so the result is valid for retransformation too.
 *
 * <p>Neither ByteBuddy's {@code AgentBuilder} nor its {@code Advice}: the first is about 800
 * classes and half a second of CPU at start-up for nothing a list of names does not do; the second
 * describes the advice classes and the instrumented types through type pools, 565 classes more
 * than the weaver's 30, loaded and run mostly on the app's thread as it loads its first client
 * class (docs/benchmarks.md, "Hooks woven with ASM"). The advice only ever called static methods,
 * which is all a hook is.
 *
 * <p>Before a type of a library module is transformed in a loader, the loader must see the agent
 * ({@link AgentVisibility}) and the module's helpers are defined in it ({@link HelperInjector});
 * the JDK's types ({@link JdkInstrumentationModule}) are transformed in the platform loader only.
 * A type that cannot be transformed is left as it was, the failure counted in
 * {@link InternalFailures}.
 */
final class HookTransformer implements ClassFileTransformer {

  private static final ClassLoader PLATFORM = ClassLoader.getPlatformClassLoader();

  /** By internal name ({@code okhttp3/OkHttpClient$Builder}), as the JVM names a class loaded. */
  private final Map<String, ModuleHooks> modules;

  private HookTransformer(Map<String, ModuleHooks> modules) {
    this.modules = modules;
  }

  /**
   * The modules' hooks, each module's made when the first of its types is transformed: an app
   * that never loads, say, the JDK's {@code HttpClient} never pays for that module's set-up.
   */
  static HookTransformer of(Instrumentation instrumentation, List<InstrumentationModule> modules) {
    AgentVisibility seesTheAgent = new AgentVisibility();
    Map<String, ModuleHooks> byType = new HashMap<>();
    for (InstrumentationModule module : modules) {
      ModuleHooks hooks = new ModuleHooks(module, instrumentation, seesTheAgent);
      for (TypeInstrumentation type : module.typeInstrumentations()) {
        for (String name : type.typeNames()) {
          byType.put(name.replace('.', '/'), hooks);
        }
      }
    }
    return new HookTransformer(Map.copyOf(byType));
  }

  /** True for a type an instrumentation names, by internal name ({@code okhttp3/RealCall}). */
  boolean instruments(String internalName) {
    return modules.containsKey(internalName);
  }

  @Override
  public byte[] transform(ClassLoader loader, String internalName, Class<?> classBeingRedefined,
      ProtectionDomain protectionDomain, byte[] classFile) {
    ModuleHooks module = internalName == null ? null : modules.get(internalName);
    if (module == null || loader == null) {
      return null;
    }
    TypeHooks hooks = module.types().get(internalName);
    if (hooks == null || !hooks.loaders.test(loader)) {
      return null;
    }
    try {
      if (hooks.helpers != null) {
        hooks.helpers.injectInto(loader);
      }
      return hooks.applyTo(classFile);
    } catch (RuntimeException | LinkageError e) {
      InternalFailures.record("instrumenting " + internalName.replace('/', '.'), e);
      return null;
    }
  }

  /**
   * One module's hooks by internal type name, made on first use. A JDK module whose bridge
   * cannot be reached has none, its failure counted.
   */
  private static final class ModuleHooks {
    private final InstrumentationModule module;
    private final Instrumentation instrumentation;
    private final AgentVisibility seesTheAgent;
    private volatile Map<String, TypeHooks> types;

    ModuleHooks(InstrumentationModule module, Instrumentation instrumentation,
        AgentVisibility seesTheAgent) {
      this.module = module;
      this.instrumentation = instrumentation;
      this.seesTheAgent = seesTheAgent;
    }

    Map<String, TypeHooks> types() {
      Map<String, TypeHooks> made = types;
      if (made == null) {
        synchronized (this) {
          made = types;
          if (made == null) {
            made = make();
            types = made;
          }
        }
      }
      return made;
    }

    private Map<String, TypeHooks> make() {
      Predicate<ClassLoader> loaders;
      HelperInjector helpers;
      if (module instanceof JdkInstrumentationModule jdk) {
        try {
          jdk.checkBridge();
        } catch (IllegalStateException e) {
          InternalFailures.record("instrumenting " + module.name(), e);
          return Map.of();
        }
        loaders = loader -> loader == PLATFORM;
        helpers = null;
      } else {
        loaders = seesTheAgent;
        helpers = new HelperInjector(instrumentation, module.name(), module.helperClassNames());
      }
      Map<String, TypeHooks> made = new HashMap<>();
      for (TypeInstrumentation type : module.typeInstrumentations()) {
        TypeHooks hooks = new TypeHooks(loaders, helpers, hooksOf(type));
        for (String name : type.typeNames()) {
          made.put(name.replace('.', '/'), hooks);
        }
      }
      return Map.copyOf(made);
    }
  }

  /** What {@code type} asks for, as hook points. */
  static List<HookPoint> hooksOf(TypeInstrumentation type) {
    List<HookPoint> points = new ArrayList<>();
    type.transform(new TypeInstrumentation.Hooks() {
      @Override
      public void answer(MethodFilter methods, Hook hook) {
        points.add(new HookPoint(methods, HookPoint.Where.ANSWER, Passed.NOTHING, hook));
      }

      @Override
      public void atEnter(MethodFilter methods, Passed passed, Hook hook) {
        points.add(new HookPoint(methods, HookPoint.Where.ENTER, passed, hook));
      }

      @Override
      public void atReturn(MethodFilter methods, Passed passed, Hook hook) {
        points.add(new HookPoint(methods, HookPoint.Where.RETURN, passed, hook));
      }

      @Override
      public void atExit(MethodFilter methods, Passed passed, Hook hook) {
        points.add(new HookPoint(methods, HookPoint.Where.EXIT, passed, hook));
      }
    });
    return List.copyOf(points);
  }

  /** One type instrumentation of a module: where it applies, and its hooks. */
  record TypeHooks(Predicate<ClassLoader> loaders, HelperInjector helpers,
      List<HookPoint> hooks) {

    byte[] applyTo(byte[] classFile) {
      return HookWeaver.weave(classFile, hooks);
    }
  }
}
