package io.tollgate.agent.instrumentation;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import net.bytebuddy.jar.asm.Type;
import org.junit.jupiter.api.Test;

/**
 * Every hook every module names fits each method it matches and exists, with the exact descriptor
 * the woven call has there, on the client versions the helpers are compiled against: a hook is named by
 * strings, and one the JVM cannot link would leave the client ungated (or, before a return,
 * throw into the app).
 */
class HookTargetsTest {

  @Test
  void everyHookOfEveryModuleResolvesInEveryMethodItMatches() throws Exception {
    List<String> woven = new ArrayList<>();
    for (InstrumentationModule module : InstrumentationModules.all()) {
      for (TypeInstrumentation type : module.typeInstrumentations()) {
        List<HookPoint> points = HookTransformer.hooksOf(type);
        int typesFound = 0;
        for (String name : type.typeNames()) {
          Class<?> target = load(name);
          if (target == null) {
            continue; // another major version's name (okhttp3.RealCall is 3.x's only)
          }
          typesFound++;
          for (HookPoint point : points) {
            for (Executable method : methodsOf(target)) {
              String descriptor = descriptorOf(method);
              String methodName = method instanceof Constructor<?> ? "<init>" : method.getName();
              if (point.methods().matches(method.getModifiers(), methodName, descriptor)) {
                assertThat(HookedMethod.fits(point, new MethodShape(Type.getInternalName(target),
                    method.getModifiers(), methodName, descriptor)))
                    .as("%s fits %s.%s%s", point.hook(), target.getName(), methodName, descriptor)
                    .isTrue();
                assertResolves(point, method.getParameterCount());
                woven.add(target.getSimpleName() + "." + methodName + "/"
                    + method.getParameterCount() + " " + point.where());
              }
            }
          }
        }
        assertThat(typesFound).as("a type of %s on the test class path", type.typeNames())
            .isPositive();
      }
    }
    assertThat(new TreeSet<>(woven)).containsExactly(
        "AbstractHttpClient.doExecute/3 ANSWER",
        "AbstractMinimalHttpAsyncClientBase.doExecute/6 ANSWER",
        "Builder.<init>/0 RETURN",
        "Builder.<init>/1 RETURN",
        "H2AsyncClientBuilder.build/0 ENTER",
        "HttpAsyncClientBuilder.build/0 ENTER",
        "HttpClientBuilder.build/0 ENTER",
        "HttpClientFacade.send/2 ANSWER",
        "HttpClientFacade.sendAsync/2 ANSWER",
        "HttpClientFacade.sendAsync/3 ANSWER",
        "HttpRequestExecutor.execute/3 ANSWER",
        "HttpResponseProxy.close/0 ENTER",
        "InternalAbstractHttpAsyncClient.doExecute/6 ANSWER",
        "InternalHttpClient.doExecute/3 ANSWER",
        "MinimalHttpClient.doExecute/3 ANSWER",
        "OkHttpClient.<init>/1 ENTER",
        "RealCall.enqueue/1 ENTER",
        "RealCall.execute/0 ENTER",
        "RealCall.execute/0 EXIT");
  }

  private static void assertResolves(HookPoint point, int arguments) throws Exception {
    Hook hook = point.hook();
    int values = point.values(arguments);
    if (hook.owner() == null) {
      Field field = JdkBridgeClass.BRIDGE.getField(hook.member());
      assertThat(Modifier.isStatic(field.getModifiers())).as(hook.toString()).isTrue();
      MethodHandle handle = (MethodHandle) field.get(null);
      assertThat(handle.type()).as(hook.toString()).isEqualTo(point.answers()
          ? MethodType.genericMethodType(values)
          : MethodType.genericMethodType(values).changeReturnType(void.class));
      return;
    }
    Class<?> owner = Class.forName(hook.owner().replace('/', '.'));
    Class<?>[] objects = new Class<?>[values];
    java.util.Arrays.fill(objects, Object.class);
    Method method = owner.getMethod(hook.member(), objects);
    assertThat(Modifier.isStatic(method.getModifiers())).as(hook.toString()).isTrue();
    assertThat(Type.getMethodDescriptor(method)).as(hook.toString())
        .isEqualTo(point.descriptor(arguments));
  }

  private static List<Executable> methodsOf(Class<?> type) {
    List<Executable> all = new ArrayList<>(List.of(type.getDeclaredMethods()));
    all.addAll(List.of(type.getDeclaredConstructors()));
    return all;
  }

  private static String descriptorOf(Executable method) {
    return method instanceof Method m ? Type.getMethodDescriptor(m)
        : Type.getConstructorDescriptor((Constructor<?>) method);
  }

  private static Class<?> load(String name) {
    try {
      return Class.forName(name, false, HookTargetsTest.class.getClassLoader());
    } catch (ClassNotFoundException e) {
      return null;
    }
  }

  /** The JDK module's bridge, named as its hooks name it. */
  private static final class JdkBridgeClass {
    static final Class<?> BRIDGE = io.tollgate.agent.jdkhttp.JdkHttpBridge.class;
  }
}
