package io.tollgate.agent.instrumentation;

import static net.bytebuddy.matcher.ElementMatchers.named;

import io.tollgate.agent.InternalFailures;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.implementation.bytecode.assign.Assigner;

/**
 * Runs the advice machinery once, on a class of the agent's own, on a daemon thread started when
 * the configuration has been read and the agent is on: ByteBuddy's classes load and initialise
 * there (its type descriptions build large static tables) while the app starts, instead of on the
 * app's thread when it loads its first client class. The class file made is thrown away; nothing
 * is defined or changed. An app that does its own start-up work before its first call gets that
 * call about 0.1 s sooner; the cost is about 0.2 s of CPU on this thread, paid also by an app that
 * never loads a client (docs/benchmarks.md, "Agent").
 */
public final class AdviceWarmUp {

  static final String WHERE = "warming up the advice";

  private AdviceWarmUp() {}

  /** Starts the warm-up on {@code tollgate-advice-warm-up}. */
  public static void start() {
    Thread thread = new Thread(AdviceWarmUp::run, "tollgate-advice-warm-up");
    thread.setDaemon(true);
    thread.start();
  }

  private static void run() {
    try {
      adviseTarget();
    } catch (IOException | RuntimeException | LinkageError e) {
      InternalFailures.record(WHERE, e);
    }
  }

  /** {@link Target}'s class file with {@link TargetAdvice} inlined, as a client's would be. */
  static byte[] adviseTarget() throws IOException {
    String name = Target.class.getName();
    byte[] classFile;
    try (InputStream in = AdviceWarmUp.class.getResourceAsStream(
        "/" + name.replace('.', '/') + ".class")) {
      classFile = in.readAllBytes();
    }
    return new AdviceTransformer.TypeAdvice(loader -> true, null, Advice.withCustomMapping(),
        AdviceTransformer.countingHandler(),
        List.of(new AdviceTransformer.AdviceOn(named("call"), TargetAdvice.class.getName())))
        .applyTo(name, classFile, AdviceWarmUp.class.getClassLoader());
  }

  /** What the warm-up advises: shaped like a client's method. */
  public static final class Target {
    public Object call(Object request) {
      return request;
    }
  }

  /** Advice shaped like the clients': skip on a non-default value, the return value replaced. */
  static final class TargetAdvice {
    private TargetAdvice() {}

    @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class, suppress = Throwable.class)
    static Object enter(@Advice.This Object target, @Advice.Argument(0) Object request) {
      return null;
    }

    @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
    static void exit(@Advice.Enter Object handled,
        @Advice.Return(readOnly = false, typing = Assigner.Typing.DYNAMIC) Object returned,
        @Advice.Thrown(readOnly = false, typing = Assigner.Typing.DYNAMIC) Throwable thrown) {
      if (handled != null) {
        returned = handled;
        thrown = null;
      }
    }
  }
}
