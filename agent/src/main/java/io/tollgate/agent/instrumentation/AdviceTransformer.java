package io.tollgate.agent.instrumentation;

import io.tollgate.agent.InternalFailures;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.bytebuddy.ClassFileVersion;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.asm.AsmVisitorWrapper;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.dynamic.scaffold.TypeInitializer;
import net.bytebuddy.implementation.Implementation;
import net.bytebuddy.implementation.auxiliary.AuxiliaryType;
import net.bytebuddy.implementation.bytecode.member.MethodInvocation;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.matcher.ElementMatcher;
import net.bytebuddy.pool.TypePool;
import net.bytebuddy.utility.AsmClassReader;
import net.bytebuddy.utility.AsmClassWriter;

/**
 * Inlines the modules' advice into the class files of their types, and leaves every other class
 * alone. What ByteBuddy's {@code AgentBuilder} would do with {@code disableClassFormatChanges()} and
 * {@code TypeStrategy.Default.DECORATE}, for types known by name: the class file is read once with
 * ASM, the advice ({@link Advice}) rewrites the matched method bodies as it passes, and nothing is
 * added to the class, so the result is valid for retransformation too.
 *
 * <p>Not the {@code AgentBuilder} itself: its matchers, strategies and the transformer class it
 * generates on first use are about 800 classes and half a second of CPU at start-up
 * (docs/benchmarks.md, "Agent"), for nothing a list of names does not do.
 *
 * <p>Before a type of a library module is transformed in a loader, the loader must see the agent
 * ({@link AgentVisibility}) and the module's helpers are defined in it ({@link HelperInjector});
 * the JDK's types ({@link JdkInstrumentationModule}) are transformed in the platform loader only.
 * A type that cannot be transformed is left as it was, the failure counted in
 * {@link InternalFailures}.
 */
final class AdviceTransformer implements ClassFileTransformer {

  private static final ClassLoader PLATFORM = ClassLoader.getPlatformClassLoader();
  /** Where the advice classes are read from: the agent jar. */
  private static final ClassFileLocator AGENT_CLASSES =
      ClassFileLocator.ForClassLoader.of(AdviceTransformer.class.getClassLoader());

  /** By internal name ({@code okhttp3/OkHttpClient$Builder}), as the JVM names a class loaded. */
  private final Map<String, ModuleAdvice> modules;

  private AdviceTransformer(Map<String, ModuleAdvice> modules) {
    this.modules = modules;
  }

  /**
   * The modules' advice, each module's made when the first of its types is transformed: an app
   * that never loads, say, the JDK's {@code HttpClient} never pays for that module's set-up.
   */
  static AdviceTransformer of(Instrumentation instrumentation, List<InstrumentationModule> modules) {
    AgentVisibility seesTheAgent = new AgentVisibility();
    Map<String, ModuleAdvice> byType = new HashMap<>();
    for (InstrumentationModule module : modules) {
      ModuleAdvice advice = new ModuleAdvice(module, instrumentation, seesTheAgent);
      for (TypeInstrumentation type : module.typeInstrumentations()) {
        for (String name : type.typeNames()) {
          byType.put(name.replace('.', '/'), advice);
        }
      }
    }
    return new AdviceTransformer(Map.copyOf(byType));
  }

  /** True for a type an instrumentation names, by internal name ({@code okhttp3/RealCall}). */
  boolean instruments(String internalName) {
    return modules.containsKey(internalName);
  }

  @Override
  public byte[] transform(ClassLoader loader, String internalName, Class<?> classBeingRedefined,
      ProtectionDomain protectionDomain, byte[] classFile) {
    ModuleAdvice module = internalName == null ? null : modules.get(internalName);
    if (module == null || loader == null) {
      return null;
    }
    TypeAdvice advice = module.types().get(internalName);
    if (advice == null || !advice.loaders.matches(loader)) {
      return null;
    }
    String name = internalName.replace('/', '.');
    try {
      if (advice.helpers != null) {
        advice.helpers.injectInto(loader);
      }
      return advice.applyTo(name, classFile, loader);
    } catch (RuntimeException | LinkageError e) {
      InternalFailures.record("instrumenting " + name, e);
      return null;
    }
  }

  /**
   * One module's advice by internal type name, made on first use. A JDK module whose advice
   * cannot reach the agent has none, its failure counted.
   */
  private static final class ModuleAdvice {
    private final InstrumentationModule module;
    private final Instrumentation instrumentation;
    private final AgentVisibility seesTheAgent;
    private volatile Map<String, TypeAdvice> types;

    ModuleAdvice(InstrumentationModule module, Instrumentation instrumentation,
        AgentVisibility seesTheAgent) {
      this.module = module;
      this.instrumentation = instrumentation;
      this.seesTheAgent = seesTheAgent;
    }

    Map<String, TypeAdvice> types() {
      Map<String, TypeAdvice> made = types;
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

    private Map<String, TypeAdvice> make() {
      ElementMatcher<ClassLoader> loaders;
      HelperInjector helpers;
      Advice.WithCustomMapping mapping;
      Advice.ExceptionHandler failures;
      if (module instanceof JdkInstrumentationModule jdk) {
        try {
          mapping = jdk.adviceMapping();
        } catch (IllegalStateException e) {
          InternalFailures.record("instrumenting " + module.name(), e);
          return Map.of();
        }
        loaders = loader -> loader == PLATFORM;
        helpers = null;
        // the JDK's classes cannot call InternalFailures; the advice only calls the agent through
        // a method handle that catches and counts everything itself
        failures = Advice.ExceptionHandler.Default.SUPPRESSING;
      } else {
        loaders = seesTheAgent;
        helpers = new HelperInjector(instrumentation, module.name(), module.helperClassNames());
        mapping = Advice.withCustomMapping();
        failures = countingHandler();
      }
      Map<String, TypeAdvice> made = new HashMap<>();
      for (TypeInstrumentation type : module.typeInstrumentations()) {
        List<AdviceOn> advices = new ArrayList<>();
        type.transform((methods, adviceClassName) -> advices.add(new AdviceOn(methods, adviceClassName)));
        TypeAdvice advice = new TypeAdvice(loaders, helpers, mapping, failures, List.copyOf(advices));
        for (String name : type.typeNames()) {
          made.put(name.replace('.', '/'), advice);
        }
      }
      return Map.copyOf(made);
    }
  }

  /** Sends what advice throws (and suppresses) to {@link InternalFailures#adviceFailed}. */
  static Advice.ExceptionHandler countingHandler() {
    try {
      return new Advice.ExceptionHandler.Simple(MethodInvocation.invoke(
          new MethodDescription.ForLoadedMethod(
              InternalFailures.class.getMethod("adviceFailed", Throwable.class))));
    } catch (NoSuchMethodException e) {
      throw new IllegalStateException(e);
    }
  }

  record AdviceOn(ElementMatcher<? super MethodDescription> methods, String adviceClassName) {}

  /** One type instrumentation of a module: where it applies, and its advice. */
  record TypeAdvice(ElementMatcher<ClassLoader> loaders, HelperInjector helpers,
      Advice.WithCustomMapping mapping, Advice.ExceptionHandler failures, List<AdviceOn> advices) {

    byte[] applyTo(String name, byte[] classFile, ClassLoader loader) {
      ClassFileLocator library = ClassFileLocator.ForClassLoader.of(loader);
      // the advice names the library's types: described with the agent's classes and the loader's
      ClassFileLocator adviceClasses = new ClassFileLocator.Compound(AGENT_CLASSES, library);
      TypePool advicePool = pool(adviceClasses);
      AsmVisitorWrapper.ForDeclaredMethods wrapper = new AsmVisitorWrapper.ForDeclaredMethods();
      for (AdviceOn advice : advices) {
        wrapper = wrapper.invokable(advice.methods(), mapping
            .to(advicePool.describe(advice.adviceClassName()).resolve(), adviceClasses)
            .withExceptionHandler(failures));
      }
      TypePool typePool = pool(new ClassFileLocator.Compound(
          ClassFileLocator.Simple.of(name, classFile), library));
      return decorate(typePool.describe(name).resolve(), classFile, typePool, wrapper);
    }

    /**
     * The class file read and written once, the wrapper's visitor in between; the implementation
     * context is disabled, so nothing can be added to the class (as {@code AgentBuilder}'s
     * {@code disableClassFormatChanges()}), with the frames handled as ByteBuddy's decoration does.
     */
    private static byte[] decorate(TypeDescription type, byte[] classFile, TypePool typePool,
        AsmVisitorWrapper wrapper) {
      int writerFlags = wrapper.mergeWriter(AsmVisitorWrapper.NO_FLAGS);
      int readerFlags = wrapper.mergeReader(AsmVisitorWrapper.NO_FLAGS);
      AsmClassReader reader = AsmClassReader.Factory.Default.IMPLICIT.make(classFile);
      AsmClassWriter writer = AsmClassWriter.Factory.Default.IMPLICIT.make(writerFlags, reader, typePool);
      ClassFileVersion version = ClassFileVersion.ofClassFile(classFile);
      Implementation.Context.FrameGeneration frames;
      if ((writerFlags & ClassWriter.COMPUTE_FRAMES) != 0 || !version.isAtLeast(ClassFileVersion.JAVA_V6)) {
        frames = Implementation.Context.FrameGeneration.DISABLED;
      } else if ((readerFlags & ClassReader.EXPAND_FRAMES) != 0) {
        frames = Implementation.Context.FrameGeneration.EXPAND;
      } else {
        frames = Implementation.Context.FrameGeneration.GENERATE;
      }
      Implementation.Context context = Implementation.Context.Disabled.Factory.INSTANCE.make(type,
          new AuxiliaryType.NamingStrategy.Suffixing("auxiliary"), TypeInitializer.None.INSTANCE,
          version, version, frames);
      ClassVisitor visitor = wrapper.wrap(type, writer.getVisitor(), context, typePool,
          type.getDeclaredFields(), type.getDeclaredMethods(), writerFlags, readerFlags);
      reader.accept(visitor, readerFlags);
      return writer.getBinaryRepresentation();
    }

    /** As ByteBuddy's agent describes a type being loaded: lazily, without debug information. */
    private static TypePool pool(ClassFileLocator classFiles) {
      return new TypePool.Default.WithLazyResolution(TypePool.CacheProvider.Simple.withObjectType(),
          classFiles, TypePool.Default.ReaderMode.FAST);
    }
  }
}
