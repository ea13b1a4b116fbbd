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
    Class<?> target = new WovenClassLoader(WeavingWarmUp.Target.class.getName(), woven)
        .loadClass(WeavingWarmUp.Target.class.getName());
    Object instance = target.getConstructor().newInstance();
    Method call = target.getMethod("call", Object.class);
    assertThat(call.invoke(instance, "request")).as("not skipped, the method's own result")
        .isEqualTo("request");
    assertThat(call.invoke(instance, "answer")).as("the hook's answer in its place")
        .isEqualTo("answered");
    assertThat(InternalFailures.count(WeavingWarmUp.WHERE)).isEqualTo(failuresBefore);
  }
}
