package io.tollgate.agent.instrumentation;

import java.util.ArrayList;
import java.util.List;
import net.bytebuddy.jar.asm.Label;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * One method's code with its hooks woven in, as ASM visits it:
 *
 * <ul>
 *   <li>at the start, each {@link HookPoint.Where#ENTER} and {@link HookPoint.Where#ANSWER} hook, in
 *       a try block of its own: what it throws is handed to {@link Hook#failed} and the method runs
 *       on unchanged. A non-null answer is returned in the method's place (thrown, when it is a
 *       {@code Throwable});
 *   <li>before each return instruction, each {@link HookPoint.Where#RETURN} and
 *       {@link HookPoint.Where#EXIT} hook (these must not throw: nothing is known there of the
 *       frame a handler would need);
 *   <li>after the method's own code, a handler for anything thrown out of it, which calls each
 *       {@link HookPoint.Where#EXIT} hook and throws it on, listed after the method's own handlers
 *       so that it only sees what the method does not catch itself.
 * </ul>
 */
final class HookedMethod extends MethodVisitor {

  private static final String THROWABLE = "java/lang/Throwable";
  private static final String OBJECT = "java/lang/Object";

  private final MethodShape shape;
  private final boolean frames;
  private final List<HookPoint> atStart = new ArrayList<>();
  private final List<HookPoint> atReturn = new ArrayList<>();
  private final List<HookPoint> onThrow = new ArrayList<>();
  private final Label bodyStart = new Label();
  private final Object[] entryLocals;

  HookedMethod(MethodVisitor code, MethodShape shape, List<HookPoint> points, boolean frames) {
    super(Opcodes.ASM9, code);
    this.shape = shape;
    this.frames = frames;
    this.entryLocals = shape.entryLocals();
    for (HookPoint point : points) {
      if (!fits(point, shape)) {
        continue;
      }
      switch (point.where()) {
        case ANSWER, ENTER -> atStart.add(point);
        case RETURN -> atReturn.add(point);
        case EXIT -> {
          atReturn.add(point);
          onThrow.add(point);
        }
      }
    }
  }

  boolean hasHooks() {
    return !atStart.isEmpty() || !atReturn.isEmpty();
  }

  /**
   * True when {@code point}'s call can be woven into {@code shape}: an answer needs an instance
   * method taking and returning objects; the instance is passed only where it is initialised; an
   * argument only when it is an object. A hook that does not fit is left out of that method.
   */
  static boolean fits(HookPoint point, MethodShape shape) {
    return switch (point.where()) {
      case ANSWER -> !shape.isStatic() && !shape.isConstructor() && shape.takesObjectsOnly()
          && shape.returnsAnObject();
      case EXIT -> point.passed() == Passed.NOTHING
          || (point.passed() == Passed.THIS && !shape.isStatic() && !shape.isConstructor());
      // at a return, a constructor's instance is initialised
      case RETURN -> point.passed() == Passed.THIS
          ? !shape.isStatic() : passable(point.passed(), shape);
      case ENTER -> passable(point.passed(), shape);
    };
  }

  private static boolean passable(Passed passed, MethodShape shape) {
    return switch (passed) {
      case NOTHING -> true;
      case THIS -> !shape.isStatic() && !shape.isConstructor(); // uninitialised before super()
      case FIRST_ARGUMENT -> shape.argumentCount() > 0 && shape.takesObjectsOnly();
    };
  }

  @Override
  public void visitCode() {
    super.visitCode();
    for (HookPoint point : atStart) {
      guardedCall(point);
      if (point.answers()) {
        answerOrRunOn();
      } else {
        super.visitInsn(Opcodes.NOP); // keeps the method's own first frame, if any, at an offset of its own
      }
    }
    if (!onThrow.isEmpty()) {
      super.visitLabel(bodyStart);
    }
  }

  /**
   * {@code try { [answer =] hook(values); } catch (Throwable t) { failed(t); [answer = null;] }}, the
   * answer, if any, left on the stack rather than in a local the method's frames do not know.
   */
  private void guardedCall(HookPoint point) {
    Label start = new Label();
    Label end = new Label();
    Label handler = new Label();
    Label after = new Label();
    super.visitTryCatchBlock(start, end, handler, THROWABLE);
    super.visitLabel(start);
    call(point);
    super.visitLabel(end);
    super.visitJumpInsn(Opcodes.GOTO, after);
    super.visitLabel(handler);
    frame(entryLocals, THROWABLE);
    point.hook().failed(this.mv);
    if (point.answers()) {
      super.visitInsn(Opcodes.ACONST_NULL);
      super.visitLabel(after);
      frame(entryLocals, OBJECT);
    } else {
      super.visitLabel(after);
      frame(entryLocals);
    }
  }

  /**
   * With the answer on the stack: {@code if (a != null) { if (a instanceof Throwable) throw
   * (Throwable) a; return (R) a; }}, else the method runs on.
   */
  private void answerOrRunOn() {
    Label returned = new Label();
    Label none = new Label();
    super.visitInsn(Opcodes.DUP);
    super.visitJumpInsn(Opcodes.IFNULL, none);
    super.visitInsn(Opcodes.DUP);
    super.visitTypeInsn(Opcodes.INSTANCEOF, THROWABLE);
    super.visitJumpInsn(Opcodes.IFEQ, returned);
    super.visitTypeInsn(Opcodes.CHECKCAST, THROWABLE);
    super.visitInsn(Opcodes.ATHROW);
    super.visitLabel(returned);
    frame(entryLocals, OBJECT);
    super.visitTypeInsn(Opcodes.CHECKCAST, shape.returnedType());
    super.visitInsn(Opcodes.ARETURN);
    super.visitLabel(none);
    frame(entryLocals, OBJECT);
    super.visitInsn(Opcodes.POP);
  }

  @Override
  public void visitInsn(int opcode) {
    if (opcode >= Opcodes.IRETURN && opcode <= Opcodes.RETURN) {
      for (HookPoint point : atReturn) {
        call(point);
      }
    }
    super.visitInsn(opcode);
  }

  @Override
  public void visitMaxs(int maxStack, int maxLocals) {
    if (!onThrow.isEmpty()) {
      Label bodyEnd = new Label();
      Label handler = new Label();
      super.visitLabel(bodyEnd);
      super.visitLabel(handler);
      boolean passesThis = onThrow.stream().anyMatch(point -> point.passed() == Passed.THIS);
      // no locals but the instance, when a hook needs it: valid wherever the method may throw
      frame(passesThis ? shape.thisOnly() : new Object[0], THROWABLE);
      for (HookPoint point : onThrow) {
        call(point);
      }
      super.visitInsn(Opcodes.ATHROW);
      super.visitTryCatchBlock(bodyStart, bodyEnd, handler, null);
    }
    super.visitMaxs(maxStack, maxLocals);
  }

  /** The hook's call, handed its values: an answer the instance and every argument. */
  private void call(HookPoint point) {
    point.hook().before(this.mv);
    if (point.answers()) {
      shape.loadThis(this.mv);
      shape.loadArguments(this.mv);
    } else if (point.passed() == Passed.THIS) {
      shape.loadThis(this.mv);
    } else if (point.passed() == Passed.FIRST_ARGUMENT) {
      shape.loadFirstArgument(this.mv);
    }
    point.hook().call(this.mv, point.values(shape.argumentCount()), point.answers());
  }

  private void frame(Object[] locals, Object... stack) {
    if (frames) {
      super.visitFrame(Opcodes.F_NEW, locals.length, locals, stack.length, stack);
    }
  }
}
