package io.tollgate.agent.instrumentation;

import io.tollgate.agent.InternalFailures;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;

/**
 * Runs the weaving once, on a class of the agent's own, on a daemon thread started when the
 * configuration has been read and the agent is on: the ASM classes load and their code runs there
 * while the app starts, instead of on the app's thread when it loads its first client class. The
 * class file made is thrown away; nothing is defined or changed.
 */
public final class WeavingWarmUp {

  static final String WHERE = "warming up the weaving";

  private WeavingWarmUp() {}

  /** Starts the warm-up on {@code tollgate-weaving-warm-up}. */
  public static void start() {
    Thread thread = new Thread(WeavingWarmUp::run, "tollgate-weaving-warm-up");
    thread.setDaemon(true);
    thread.start();
  }

  private static void run() {
    try {
      weaveTarget();
    } catch (IOException | RuntimeException | LinkageError e) {
      InternalFailures.record(WHERE, e);
    }
  }

  /** {@link Target}'s class file with {@link #answer} woven in, as a client's would be. */
  static byte[] weaveTarget() throws IOException {
    String name = Target.class.getName();
    byte[] classFile;
    try (InputStream in = WeavingWarmUp.class.getResourceAsStream(
        "/" + name.replace('.', '/') + ".class")) {
      classFile = in.readAllBytes();
    }
    return HookWeaver.weave(classFile, List.of(
        new HookPoint(MethodFilter.named("call", 1), HookPoint.Where.ANSWER, Passed.NOTHING,
            Hook.method(WeavingWarmUp.class.getName(), "answer"))));
  }

  /** What the warm-up weaves into: shaped like a client's method. */
  public static final class Target {
    public Object call(Object request) {
      return request;
    }
  }

  /** The woven answer: the argument {@code "answer"} is answered with {@code "answered"}. */
  public static Object answer(Object target, Object request) {
    return "answer".equals(request) ? "answered" : null;
  }
}
