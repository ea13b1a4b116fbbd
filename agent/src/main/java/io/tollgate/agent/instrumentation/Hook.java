package io.tollgate.agent.instrumentation;

import io.tollgate.agent.InternalFailures;
import java.lang.invoke.MethodHandle;
import net.bytebuddy.jar.asm.ConstantDynamic;
import net.bytebuddy.jar.asm.Handle;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.Type;

/**
 * What woven code calls: a static method that takes every value it is passed as an {@code Object}
 * and returns {@code Object} (an answer) or nothing. Either a method of a class the instrumented
 * type's loader can see (a helper injected there, or a class of the agent's visible through
 * {@link AgentVisibility}), or, for the JDK's own classes, which see nothing of the agent, a
 * {@link MethodHandle} held by a public static field of an agent class, reached through a dynamic
 * constant computed with JDK methods only.
 */
public abstract sealed class Hook {

  private static final String OBJECT = "Ljava/lang/Object;";
  private static final String FAILURES = Type.getInternalName(InternalFailures.class);

  private Hook() {}

  /** The static method {@code method} of the class {@code binaryName}. */
  public static Hook method(String binaryName, String method) {
    return new StaticMethod(binaryName.replace('.', '/'), method);
  }

  /**
   * The handle in the public static field {@code field} of {@code bridge}, a class the system
   * class loader resolves to the agent's own: {@code ClassLoader.getSystemClassLoader()
   * .loadClass(bridge).getField(field).get(null)}, resolved once, by
   * {@code java.lang.invoke.ConstantBootstraps.invoke}, on the first call. Its type must be
   * {@code (Object...) -> Object} (or void) for as many values as the woven code passes.
   */
  public static Hook bridge(Class<?> bridge, String field) {
    return new Bridged(bridge.getName(), field);
  }

  /** The internal name of the class whose static method is called; null for a bridge. */
  abstract String owner();

  /** The static method called, or the bridge's field. */
  abstract String member();

  /** Emitted before the values are pushed. */
  abstract void before(MethodVisitor code);

  /** Emitted after {@code values} values are pushed: the call, leaving its answer, if any. */
  abstract void call(MethodVisitor code, int values, boolean answers);

  /** Emitted where what the hook threw is on the stack: takes it off (and counts it). */
  abstract void failed(MethodVisitor code);

  static String descriptor(int values, boolean answers) {
    return "(" + OBJECT.repeat(values) + ")" + (answers ? OBJECT : "V");
  }

  private static final class StaticMethod extends Hook {
    private final String owner;
    private final String name;

    StaticMethod(String owner, String name) {
      this.owner = owner;
      this.name = name;
    }

    @Override
    public String toString() {
      return owner.replace('/', '.') + "." + name;
    }

    @Override
    String owner() {
      return owner;
    }

    @Override
    String member() {
      return name;
    }

    @Override
    void before(MethodVisitor code) {}

    @Override
    void call(MethodVisitor code, int values, boolean answers) {
      code.visitMethodInsn(Opcodes.INVOKESTATIC, owner, name, descriptor(values, answers), false);
    }

    @Override
    void failed(MethodVisitor code) {
      code.visitMethodInsn(Opcodes.INVOKESTATIC, FAILURES, "adviceFailed",
          "(Ljava/lang/Throwable;)V", false);
    }
  }

  private static final class Bridged extends Hook {
    private static final Handle INVOKE = new Handle(Opcodes.H_INVOKESTATIC,
        "java/lang/invoke/ConstantBootstraps", "invoke",
        "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/Class;"
            + "Ljava/lang/invoke/MethodHandle;[Ljava/lang/Object;)Ljava/lang/Object;", false);
    private static final Handle NULL = new Handle(Opcodes.H_INVOKESTATIC,
        "java/lang/invoke/ConstantBootstraps", "nullConstant",
        "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/Class;)"
            + "Ljava/lang/Object;", false);

    private final ConstantDynamic handle;
    private final String described;
    private final String field;

    Bridged(String bridge, String field) {
      this.described = bridge + "." + field;
      this.field = field;
      ConstantDynamic loader = new ConstantDynamic("loader", "Ljava/lang/ClassLoader;", INVOKE,
          new Handle(Opcodes.H_INVOKESTATIC, "java/lang/ClassLoader", "getSystemClassLoader",
              "()Ljava/lang/ClassLoader;", false));
      ConstantDynamic type = new ConstantDynamic("bridge", "Ljava/lang/Class;", INVOKE,
          new Handle(Opcodes.H_INVOKEVIRTUAL, "java/lang/ClassLoader", "loadClass",
              "(Ljava/lang/String;)Ljava/lang/Class;", false), loader, bridge);
      ConstantDynamic reflected = new ConstantDynamic("field", "Ljava/lang/reflect/Field;", INVOKE,
          new Handle(Opcodes.H_INVOKEVIRTUAL, "java/lang/Class", "getField",
              "(Ljava/lang/String;)Ljava/lang/reflect/Field;", false), type, field);
      ConstantDynamic none = new ConstantDynamic("none", OBJECT, NULL);
      this.handle = new ConstantDynamic(field, Type.getDescriptor(MethodHandle.class), INVOKE,
          new Handle(Opcodes.H_INVOKEVIRTUAL, "java/lang/reflect/Field", "get",
              "(Ljava/lang/Object;)Ljava/lang/Object;", false), reflected, none);
    }

    @Override
    public String toString() {
      return described;
    }

    @Override
    String owner() {
      return null;
    }

    @Override
    String member() {
      return field;
    }

    @Override
    void before(MethodVisitor code) {
      code.visitLdcInsn(handle);
    }

    @Override
    void call(MethodVisitor code, int values, boolean answers) {
      code.visitMethodInsn(Opcodes.INVOKEVIRTUAL, "java/lang/invoke/MethodHandle", "invokeExact",
          descriptor(values, answers), false);
    }

    /** The JDK's class cannot name the agent's: the handle counts its own failures. */
    @Override
    void failed(MethodVisitor code) {
      code.visitInsn(Opcodes.POP);
    }
  }
}
