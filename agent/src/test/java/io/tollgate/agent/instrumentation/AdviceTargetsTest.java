package io.tollgate.agent.instrumentation;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.dynamic.DynamicType;
import net.bytebuddy.matcher.ElementMatcher;
import net.bytebuddy.utility.JavaModule;
import org.junit.jupiter.api.Test;

/**
 * Every advice of every module, applied as the agent applies it to the client classes the helpers
 * are compiled against: it matches exactly the methods it is written for and binds to each
 * (ByteBuddy refuses an advice whose arguments do not fit). An advice is named by a string, and one
 * that does not apply leaves the client ungated; the forked-JVM tests run the advised clients.
 */
class AdviceTargetsTest {

  private static final ClassLoader TESTS = AdviceTargetsTest.class.getClassLoader();

  @Test
  void everyAdviceOfEveryModuleAppliesToExactlyTheMethodsItIsWrittenFor() throws Exception {
    List<String> applied = new ArrayList<>();
    for (InstrumentationModule module : InstrumentationModules.all()) {
      AgentInstaller.ModuleSetUp setUp = AgentInstaller.ModuleSetUp.of(module, null,
          new AgentVisibility());
      assertThat(setUp).as(module.name()).isNotNull();
      for (TypeInstrumentation type : module.typeInstrumentations()) {
        int typesFound = 0;
        for (String name : type.typeNames()) {
          Class<?> target = load(name);
          if (target == null) {
            continue; // another major version's name (okhttp3.RealCall is 3.x's only)
          }
          typesFound++;
          TypeDescription described = TypeDescription.ForLoadedType.of(target);
          for (Advised advised : adviceOf(type)) {
            for (MethodDescription method : described.getDeclaredMethods().filter(advised.methods)) {
              applied.add(target.getSimpleName() + "." + method.getInternalName() + "/"
                  + method.getParameters().size() + " "
                  + advised.adviceClassName.substring(advised.adviceClassName.indexOf('$') + 1));
            }
          }
          byte[] original = ClassFileLocator.ForClassLoader.read(target);
          assertThat(apply(setUp, type, described, target)).as("%s advised", name)
              .isNotEqualTo(original);
        }
        assertThat(typesFound).as("a type of %s on the test class path", type.typeNames())
            .isPositive();
      }
    }
    assertThat(new TreeSet<>(applied)).containsExactly(
        "AbstractHttpClient.doExecute/3 AnswerEnter",
        "AbstractMinimalHttpAsyncClientBase.doExecute/6 AnswerEnter",
        "Builder.<init>/0 ConstructorAdvice",
        "Builder.<init>/1 ConstructorAdvice",
        "H2AsyncClientBuilder.build/0 BuildAdvice",
        "HttpAsyncClientBuilder.build/0 BuildAdvice",
        "HttpClientBuilder.build/0 BuildAdvice",
        "HttpClientFacade.send/2 SendEnter",
        "HttpClientFacade.sendAsync/2 SendAsyncEnter",
        "HttpClientFacade.sendAsync/3 SendAsyncWithPushPromisesEnter",
        "HttpRequestExecutor.execute/3 AnswerEnter",
        "HttpResponseProxy.close/0 CloseAdvice",
        "InternalAbstractHttpAsyncClient.doExecute/6 AnswerEnter",
        "InternalHttpClient.doExecute/3 AnswerEnter",
        "MinimalHttpClient.doExecute/3 AnswerEnter",
        "OkHttpClient.<init>/1 ConstructorAdvice",
        "RealCall.enqueue/1 EnqueueAdvice",
        "RealCall.execute/0 ExecuteAdvice");
  }

  /** The class file the agent makes of {@code target}, through the installer's own transformer. */
  private static byte[] apply(AgentInstaller.ModuleSetUp setUp, TypeInstrumentation type,
      TypeDescription described, Class<?> target) {
    ClassLoader loader = target.getClassLoader();
    DynamicType.Builder<?> builder = new ByteBuddy().decorate(described,
        loader == null ? ClassFileLocator.ForClassLoader.ofBootLoader()
            : ClassFileLocator.ForClassLoader.of(loader));
    return setUp.advice(type)
        .transform(builder, described, loader, JavaModule.ofType(target), null)
        .make().getBytes();
  }

  private record Advised(ElementMatcher<? super MethodDescription> methods, String adviceClassName) {}

  private static List<Advised> adviceOf(TypeInstrumentation type) {
    List<Advised> advice = new ArrayList<>();
    type.transform(new TypeTransformer() {
      @Override
      public void applyAdviceToMethod(ElementMatcher<? super MethodDescription> methods,
          String adviceClassName) {
        advice.add(new Advised(methods, adviceClassName));
      }

      @Override
      public void applyAnswerAdvice(ElementMatcher<? super MethodDescription> methods,
          String enterAdviceClassName) {
        advice.add(new Advised(methods, enterAdviceClassName));
      }
    });
    return advice;
  }

  private static Class<?> load(String name) {
    try {
      return Class.forName(name, false, TESTS);
    } catch (ClassNotFoundException e) {
      return null;
    }
  }
}
