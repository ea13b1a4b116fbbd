package io.tollgate.agent.instrumentation;

import net.bytebuddy.asm.Advice;
import net.bytebuddy.implementation.bytecode.assign.Assigner;

/**
 * The exit of every answering advice ({@link TypeTransformer#applyAnswerAdvice}): the enter
 * advice's answer, when not null, is what the method returns, or throws when it is a
 * {@code Throwable}; the method's own body was skipped. Names no class of the agent, so it is
 * inlined into the JDK's classes too.
 */
public final class AnswerExit {

  private AnswerExit() {}

  @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
  public static void exit(@Advice.Enter Object answer,
      @Advice.Return(readOnly = false, typing = Assigner.Typing.DYNAMIC) Object returned,
      @Advice.Thrown(readOnly = false, typing = Assigner.Typing.DYNAMIC) Throwable thrown) {
    if (answer instanceof Throwable) {
      thrown = (Throwable) answer;
    } else if (answer != null) {
      returned = answer;
    }
  }
}
