package io.tollgate.agent.instrumentation;

import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.matcher.ElementMatcher;

/** Collects the advice of a {@link TypeInstrumentation}. */
public interface TypeTransformer {

  /**
   * Inlines the static advice methods of {@code adviceClassName} into the methods matched. The
   * advice must use {@code suppress = Throwable.class}: what it throws is counted in
   * {@link io.tollgate.agent.InternalFailures} and the method runs on unchanged.
   */
  void applyAdviceToMethod(ElementMatcher<? super MethodDescription> methods, String adviceClassName);

  /**
   * Inlines the enter advice of {@code enterAdviceClassName}, which must be
   * {@code @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class, suppress = Throwable.class)}
   * and return an answer, and {@link AnswerExit}: null lets the method run; anything else is
   * returned in its place, or thrown when it is a {@code Throwable}.
   */
  void applyAnswerAdvice(ElementMatcher<? super MethodDescription> methods, String enterAdviceClassName);
}
