package io.tollgate.agent.instrumentation;

/** One hook of a {@link TypeInstrumentation}: where in which methods, called with what. */
record HookPoint(MethodFilter methods, Where where, Passed passed, Hook hook) {

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
