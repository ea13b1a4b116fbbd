package io.tollgate.agent.instrumentation;

import io.tollgate.agent.InternalFailures;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.DynamicType;
import net.bytebuddy.implementation.bytecode.member.MethodInvocation;
import net.bytebuddy.matcher.ElementMatcher;
import net.bytebuddy.utility.JavaModule;

/**
 * The agent's one {@code AgentBuilder}, installed by {@code premain} before anything else is done:
 * the modules' advice is inlined into their types as they load, and into those already loaded
 * (another agent's, or a late attach's) by retransformation. Nothing is added to a class, so a
 * type can be retransformed back to its own code ({@link #remove}).
 *
 * <p>Every other class is passed over by its name alone, before ByteBuddy sees it ({@link
 * NamedTypesFirst}). A library module's types are transformed only in a loader that sees the agent
 * ({@link AgentVisibility}), after its helpers are defined there ({@link HelperInjector}); the
 * JDK's types ({@link JdkInstrumentationModule}) in the platform loader only. A type that cannot be
 * transformed is left as it was, the failure counted in {@link InternalFailures}.
 */
public final class AgentInstaller {

  private static final ClassLoader PLATFORM = ClassLoader.getPlatformClassLoader();
  /** Where the advice classes are read from: the agent jar. */
  private static final ClassLoader AGENT = AgentInstaller.class.getClassLoader();

  private final Instrumentation instrumentation;
  private final NamedTypesFirst transformer;

  private AgentInstaller(Instrumentation instrumentation, NamedTypesFirst transformer) {
    this.instrumentation = instrumentation;
    this.transformer = transformer;
  }

  /** Installs the advice of {@code modules}; the types already loaded are retransformed. */
  public static AgentInstaller install(Instrumentation instrumentation,
      List<InstrumentationModule> modules) {
    keepByteBuddyOffUnsafe();
    AgentVisibility seesTheAgent = new AgentVisibility();
    Set<String> named = modules.stream().flatMap(module -> module.typeInstrumentations().stream())
        .flatMap(type -> type.typeNames().stream()).collect(Collectors.toUnmodifiableSet());
    AgentBuilder agent = new AgentBuilder.Default()
        .disableClassFormatChanges()
        .with(AgentBuilder.RedefinitionStrategy.RETRANSFORMATION)
        .with(AgentBuilder.TypeStrategy.Default.DECORATE)
        .with(new CountedFailures())
        .with(byteBuddy -> new NamedTypesFirst(byteBuddy, named))
        .ignore((type, loader, module, redefined, domain) -> !named.contains(type.getName()));
    for (InstrumentationModule module : modules) {
      ModuleSetUp setUp = ModuleSetUp.of(module, instrumentation, seesTheAgent);
      if (setUp == null) {
        continue;
      }
      for (TypeInstrumentation type : module.typeInstrumentations()) {
        Set<String> names = Set.copyOf(type.typeNames());
        AgentBuilder.Identified.Extendable typed = agent
            .type((described, loader, javaModule, redefined, domain) ->
                loader != null && names.contains(described.getName()) && setUp.loaders.test(loader))
            .transform(setUp::injectHelpers);
        agent = typed.transform(setUp.advice(type));
      }
    }
    // installOn registers and returns what the decorator above made of ByteBuddy's transformer
    return new AgentInstaller(instrumentation, (NamedTypesFirst) agent.installOn(instrumentation));
  }

  /**
   * The agent is not running: the transformer is taken out and the types it changed are
   * retransformed without it, back to their own code. (A client built meanwhile keeps the
   * interceptor its builder added; with no gate it lets every call through untouched.)
   */
  public void remove() {
    transformer.stopWeaving();
    transformer.reset(instrumentation, AgentBuilder.RedefinitionStrategy.RETRANSFORMATION);
  }

  /** Where one module's types are transformed, with which helpers and advice mapping. */
  record ModuleSetUp(Predicate<ClassLoader> loaders, HelperInjector helpers,
      Advice.WithCustomMapping mapping, Advice.ExceptionHandler failures) {

    /** The module's set-up; null, its failure counted, when a JDK module cannot reach the agent. */
    static ModuleSetUp of(InstrumentationModule module, Instrumentation instrumentation,
        AgentVisibility seesTheAgent) {
      if (module instanceof JdkInstrumentationModule jdk) {
        try {
          // the JDK's classes cannot call InternalFailures: its advice only calls the agent
          // through method handles that catch and count everything themselves
          return new ModuleSetUp(loader -> loader == PLATFORM, null, jdk.adviceMapping(),
              Advice.ExceptionHandler.Default.SUPPRESSING);
        } catch (IllegalStateException e) {
          InternalFailures.record("instrumenting " + module.name(), e);
          return null;
        }
      }
      return new ModuleSetUp(seesTheAgent,
          new HelperInjector(instrumentation, module.name(), module.helperClassNames()),
          Advice.withCustomMapping(), countingHandler());
    }

    DynamicType.Builder<?> injectHelpers(DynamicType.Builder<?> builder, TypeDescription type,
        ClassLoader loader, JavaModule module, ProtectionDomain domain) {
      if (helpers != null) {
        helpers.injectInto(loader);
      }
      return builder;
    }

    AgentBuilder.Transformer.ForAdvice advice(TypeInstrumentation type) {
      AgentBuilder.Transformer.ForAdvice[] advice = {
          new AgentBuilder.Transformer.ForAdvice(mapping).include(AGENT).withExceptionHandler(failures)};
      type.transform(new TypeTransformer() {
        @Override
        public void applyAdviceToMethod(ElementMatcher<? super MethodDescription> methods,
            String adviceClassName) {
          advice[0] = advice[0].advice(methods, adviceClassName);
        }

        @Override
        public void applyAnswerAdvice(ElementMatcher<? super MethodDescription> methods,
            String enterAdviceClassName) {
          advice[0] = advice[0].advice(methods, enterAdviceClassName, AnswerExit.class.getName());
        }
      });
      return advice[0];
    }
  }

  /**
   * The agent's (relocated) ByteBuddy must not touch {@code sun.misc.Unsafe}: from JDK 24 the JVM
   * prints warnings about it on the app's stderr. Helpers are defined without it ({@link
   * HelperInjector}); ByteBuddy's own switch {@code net.bytebuddy.safe}, under the relocated name so
   * that an app's own ByteBuddy is not affected, keeps its probing off it.
   */
  private static void keepByteBuddyOffUnsafe() {
    String property = AgentBuilder.class.getPackageName().replace(".agent.builder", "") + ".safe";
    if (System.getProperty(property) == null) {
      System.setProperty(property, "true");
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

  /** A type ByteBuddy could not transform is left as it was; the failure is counted. */
  private static final class CountedFailures extends AgentBuilder.Listener.Adapter {
    @Override
    public void onError(String typeName, ClassLoader loader, JavaModule module, boolean loaded,
        Throwable error) {
      InternalFailures.record("instrumenting " + typeName, error);
    }
  }
}
