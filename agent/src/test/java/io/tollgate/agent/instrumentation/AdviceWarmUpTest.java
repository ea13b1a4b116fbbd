package io.tollgate.agent.instrumentation;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.agent.InternalFailures;
import java.io.InputStream;
import java.lang.reflect.Method;
import org.junit.jupiter.api.Test;

/** The warm-up really runs the advice machinery: it inlines advice into a valid class file. */
class AdviceWarmUpTest {

  @Test
  void inlinesItsAdviceIntoAClassFileThatStillRuns() throws Exception {
    long failuresBefore = InternalFailures.count(AdviceWarmUp.WHERE);
    byte[] original;
    try (InputStream in = AdviceWarmUpTest.class.getResourceAsStream(
        "/" + AdviceWarmUp.Target.class.getName().replace('.', '/') + ".class")) {
      original = in.readAllBytes();
    }

    byte[] advised = AdviceWarmUp.adviseTarget();

    assertThat(advised.length).as("the advice's code inlined").isGreaterThan(original.length);
    Class<?> target = new OneClassLoader(AdviceWarmUp.Target.class.getName(), advised)
        .loadClass(AdviceWarmUp.Target.class.getName());
    Object instance = target.getConstructor().newInstance();
    Method call = target.getMethod("call", Object.class);
    assertThat(call.invoke(instance, "request")).as("not skipped, the method's own result")
        .isEqualTo("request");
    assertThat(InternalFailures.count(AdviceWarmUp.WHERE)).isEqualTo(failuresBefore);
  }

  /** Defines one class from the given bytes, everything else from the test's loader. */
  private static final class OneClassLoader extends ClassLoader {
    private final String name;
    private final byte[] classFile;

    OneClassLoader(String name, byte[] classFile) {
      super(AdviceWarmUpTest.class.getClassLoader());
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
