package io.tollgate.agent.instrumentation;

import static net.bytebuddy.matcher.ElementMatchers.any;
import static net.bytebuddy.matcher.ElementMatchers.isBootstrapClassLoader;
import static net.bytebuddy.matcher.ElementMatchers.isSynthetic;
import static net.bytebuddy.matcher.ElementMatchers.not;

import io.tollgate.agent.InternalFailures;
import java.lang.instrument.Instrumentation;
import java.util.List;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.DynamicType;
import net.bytebuddy.dynamic.scaffold.TypeValidation;
import net.bytebuddy.implementation.bytecode.member.MethodInvocation;
import net.bytebuddy.matcher.ElementMatcher;
import net.bytebuddy.matcher.ElementMatchers;
import net.bytebuddy.utility.JavaModule;

/**
 * Installs the modules' advice with one {@link AgentBuilder}: retransformation without class
 * format changes, so classes loaded before the agent (or before a late attach) are instrumented
 * too and other agents' transformations are kept; helpers injected into each library's loader
 * before its types are transformed; the JDK's own types get advice that reaches the agent through
 * constants only ({@link JdkInstrumentationModule}).
 */
public final class Installer {

  /** The JDK's own loaders, where a {@link JdkInstrumentationModule}'s types live. */
  private static final ElementMatcher<ClassLoader> JDK_LOADERS = ElementMatchers.isBootstrapClassLoader()
      .or(ElementMatchers.is(ClassLoader.getPlatformClassLoader()));

  private static final AgentBuilder.Transformer NOTHING_TO_INJECT =
      (builder, type, loader, module, domain) -> builder;

  private Installer() {}

  /**
   * Builds the agent builder without installing it: ByteBuddy's set-up is most of the agent's
   * start-up time, so it can run on a thread of its own while the configuration is read.
   */
  public static AgentBuilder prepare(Instrumentation instrumentation,
      List<InstrumentationModule> modules) {
    AgentVisibility seesTheAgent = new AgentVisibility();
    AgentBuilder builder = new AgentBuilder.Default(new ByteBuddy().with(TypeValidation.DISABLED))
        .disableClassFormatChanges()
        // the advice only rewrites method bodies: decorating the class file as it passes is enough,
        // and cheaper than rebuilding the type (no method registry, no re-compiled members)
        .with(AgentBuilder.TypeStrategy.Default.DECORATE)
        .with(AgentBuilder.RedefinitionStrategy.RETRANSFORMATION)
        .with(AgentBuilder.RedefinitionStrategy.DiscoveryStrategy.Reiterating.INSTANCE)
        .with(new RetransformationListener())
        .with(AgentBuilder.InitializationStrategy.NoOp.INSTANCE)
        .with(new FailureListener())
        // The boot loader's types are never transformed (AgentVisibility refuses that loader):
        // ruled out by the loader alone, before ByteBuddy looks at them. The rest by name only.
        .ignore(any(), isBootstrapClassLoader())
        .or(IgnoredTypes.matcher());
    for (InstrumentationModule module : modules) {
      ElementMatcher<ClassLoader> loaders;
      AgentBuilder.Transformer readying;
      Advice.WithCustomMapping mapping;
      Advice.ExceptionHandler failures;
      if (module instanceof JdkInstrumentationModule jdk) {
        try {
          mapping = jdk.adviceMapping();
        } catch (IllegalStateException e) {
          InternalFailures.record("instrumenting " + module.name(), e);
          continue;
        }
        loaders = JDK_LOADERS;
        readying = NOTHING_TO_INJECT;
        // the JDK's classes cannot call InternalFailures; the advice only calls the agent through
        // a method handle that catches and counts everything itself
        failures = Advice.ExceptionHandler.Default.SUPPRESSING;
      } else {
        loaders = seesTheAgent;
        readying = injecting(new HelperInjector(instrumentation, module.name(),
            module.helperClassNames()));
        mapping = Advice.withCustomMapping();
        failures = countingHandler();
      }
      for (TypeInstrumentation type : module.typeInstrumentations()) {
        AgentBuilder.Identified.Extendable extendable = builder
            .type(notSynthetic(type.typeMatcher()), loaders)
            .transform(readying);
        AdviceCollector advices = new AdviceCollector(extendable, mapping, failures);
        type.transform(advices);
        builder = advices.builder;
      }
    }
    return builder;
  }

  /**
   * Has ByteBuddy make its {@code ClassFileTransformer} class for this JVM: it generates a subclass
   * for the module-aware {@code transform} on first use, a few hundred of its classes loaded and
   * run for the first time, which is most of {@link #install}'s time. Called on a thread of its
   * own while the builder is prepared and the configuration read; the transformer made here is
   * thrown away, never registered.
   */
  public static void warmUp() {
    new AgentBuilder.Default().makeRaw();
  }

  /** Starts transforming: classes loaded from now on, and those already loaded (retransformed). */
  public static void install(Instrumentation instrumentation, AgentBuilder prepared) {
    prepared.installOn(instrumentation);
  }

  /**
   * {@code matcher}, then not synthetic: ByteBuddy must read a class file to know its modifiers,
   * so that is asked only of the types the (name) matcher has picked, not of every class loaded.
   */
  private static ElementMatcher<TypeDescription> notSynthetic(
      ElementMatcher<? super TypeDescription> matcher) {
    return new ElementMatcher.Junction.Conjunction<>(matcher, not(isSynthetic()));
  }

  private static AgentBuilder.Transformer injecting(HelperInjector helpers) {
    return (DynamicType.Builder<?> builder, TypeDescription type, ClassLoader loader,
        JavaModule module, java.security.ProtectionDomain domain) -> {
      helpers.injectInto(loader);
      return builder;
    };
  }

  /** Sends what advice throws (and suppresses) to {@link InternalFailures#adviceFailed}. */
  private static Advice.ExceptionHandler countingHandler() {
    try {
      return new Advice.ExceptionHandler.Simple(MethodInvocation.invoke(
          new MethodDescription.ForLoadedMethod(
              InternalFailures.class.getMethod("adviceFailed", Throwable.class))));
    } catch (NoSuchMethodException e) {
      throw new IllegalStateException(e);
    }
  }

  private static final class AdviceCollector implements TypeInstrumentation.Advices {
    private final Advice.WithCustomMapping mapping;
    private final Advice.ExceptionHandler failures;
    private AgentBuilder.Identified.Extendable builder;

    AdviceCollector(AgentBuilder.Identified.Extendable builder, Advice.WithCustomMapping mapping,
        Advice.ExceptionHandler failures) {
      this.builder = builder;
      this.mapping = mapping;
      this.failures = failures;
    }

    @Override
    public void apply(ElementMatcher<? super MethodDescription> methods, String adviceClassName) {
      builder = builder.transform(new AgentBuilder.Transformer.ForAdvice(mapping)
          .include(Installer.class.getClassLoader())
          .withExceptionHandler(failures)
          .advice(methods, adviceClassName));
    }
  }

  /** Logs a batch of already loaded classes the JVM refused to retransform; they stay as they were. */
  private static final class RetransformationListener
      extends AgentBuilder.RedefinitionStrategy.Listener.Adapter {
    @Override
    public Iterable<? extends List<Class<?>>> onError(int index, List<Class<?>> batch,
        Throwable throwable, List<Class<?>> types) {
      InternalFailures.record("retransforming loaded classes", throwable);
      return List.of();
    }
  }

  /** Logs a type that could not be transformed, once per kind; the type stays as it was. */
  private static final class FailureListener extends AgentBuilder.Listener.Adapter {
    @Override
    public void onError(String typeName, ClassLoader classLoader, JavaModule module,
        boolean loaded, Throwable throwable) {
      InternalFailures.record("instrumenting " + typeName, throwable);
    }
  }
}
