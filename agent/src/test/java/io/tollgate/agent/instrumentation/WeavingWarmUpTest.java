package io.tollgate.agent.instrumentation;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.agent.InternalFailures;
import java.io.InputStream;
import java.lang.reflect.Method;
import org.junit.jupiter.api.Test;

/** The warm-up really runs the weaver: it writes its hook into a valid class file. */
class WeavingWarmUpTest {

  @Test
  void weavesItsHookIntoAClassFileThatStillRuns() throws Exception {
    long failuresBefore = InternalFailures.count(WeavingWarmUp.WHERE);
    byte[] original;
    try (InputStream in = WeavingWarmUpTest.class.getResourceAsStream(
        "/" + WeavingWarmUp.Target.class.getName().replace('.', '/') + ".class")) {
      original = in.readAllBytes();
    }

    byte[] woven = WeavingWarmUp.weaveTarget();

    assertThat(woven.length).as("the hook's call woven in").isGreaterThan(original.length);
    Class<?> target = new OneClassLoader(WeavingWarmUp.Target.class.getName(), woven)
        .loadClass(WeavingWarmUp.Target.class.getName());
    Object instance = target.getConstructor().newInstance();
    Method call = target.getMethod("call", Object.class);
    assertThat(call.invoke(instance, "request")).as("not skipped, the method's own result")
        .isEqualTo("request");
    assertThat(call.invoke(instance, "answer")).as("the hook's answer in its place")
        .isEqualTo("answered");
    assertThat(InternalFailures.count(WeavingWarmUp.WHERE)).isEqualTo(failuresBefore);
  }

  /** Defines one class from the given bytes, everything else from the test's loader. */
  private static final class OneClassLoader extends ClassLoader {
    private final String name;
    private final byte[] classFile;

    OneClassLoader(String name, byte[] classFile) {
      super(WeavingWarmUpTest.class.getClassLoader());
      this.name = name;
      this.classFile = classFile;
    }

    @Override
    protected Class<?> loadClass(String className, boolean resolve) throws ClassNotFoundException {
      if (className.equals(name)) {
        synchronized (getClassLoadingLock(className)) {
          Class<?> loaded = findLoadedClass(className);
          return loaded != null ? loaded : defineClass(className, classFile, 0, classFile.length);
        }
      }
      return super.loadClass(className, resolve);
    }
  }
}
