package io.tollgate.agent.instrumentation;

/** One hook of a {@link TypeInstrumentation}: where in which methods, called with what. */
record HookPoint(MethodFilter methods, Where where, Passed passed, Hook hook) {

  /** How many values the woven call hands the hook in a method taking {@code arguments}. */
  int values(int arguments) {
    return where == Where.ANSWER ? 1 + arguments : passed == Passed.NOTHING ? 0 : 1;
  }

  /** True when the hook returns an answer. */
  boolean answers() {
    return where == Where.ANSWER;
  }

  /** The descriptor of the woven call: {@code (Object...)Object} or {@code (Object...)V}. */
  String descriptor(int arguments) {
    return Hook.descriptor(values(arguments), answers());
  }

  enum Where {
    /** At the start, with the instance and every argument; its answer, when not null, replaces the method. */
    ANSWER,
    /** At the start. */
    ENTER,
    /** Before each normal return. */
    RETURN,
    /** Before each normal return, and when the method throws. */
    EXIT
  }
}
