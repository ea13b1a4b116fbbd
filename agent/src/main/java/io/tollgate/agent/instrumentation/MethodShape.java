package io.tollgate.agent.instrumentation;

import java.util.ArrayList;
import java.util.List;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.Type;

/** A method being woven, as its class file declares it: what its frames and hooks need to know. */
final class MethodShape {

  private final String owner;
  private final boolean isStatic;
  private final boolean constructor;
  private final Type[] arguments;
  private final Type returned;

  MethodShape(String owner, int access, String name, String descriptor) {
    this.owner = owner;
    this.isStatic = (access & Opcodes.ACC_STATIC) != 0;
    this.constructor = name.equals("<init>");
    this.arguments = Type.getArgumentTypes(descriptor);
    this.returned = Type.getReturnType(descriptor);
  }

  boolean isStatic() {
    return isStatic;
  }

  boolean isConstructor() {
    return constructor;
  }

  int argumentCount() {
    return arguments.length;
  }

  /** True when every argument is an object or array. */
  boolean takesObjectsOnly() {
    for (Type argument : arguments) {
      if (!isReference(argument)) {
        return false;
      }
    }
    return true;
  }

  boolean returnsAnObject() {
    return isReference(returned);
  }

  /** The internal name (or array descriptor) a returned answer is cast to. */
  String returnedType() {
    return returned.getSort() == Type.ARRAY ? returned.getDescriptor() : returned.getInternalName();
  }

  /** Pushes the instance. */
  void loadThis(MethodVisitor code) {
    code.visitVarInsn(Opcodes.ALOAD, 0);
  }

  /** Pushes the first argument (an object). */
  void loadFirstArgument(MethodVisitor code) {
    code.visitVarInsn(Opcodes.ALOAD, isStatic ? 0 : 1);
  }

  /** Pushes every argument, in order (objects only: see {@link #takesObjectsOnly}). */
  void loadArguments(MethodVisitor code) {
    int slot = isStatic ? 0 : 1;
    for (Type argument : arguments) {
      code.visitVarInsn(argument.getOpcode(Opcodes.ILOAD), slot);
      slot += argument.getSize();
    }
  }

  /**
   * The locals on entry, as a frame lists them: the instance (uninitialised in a constructor) and
   * the arguments.
   */
  Object[] entryLocals() {
    List<Object> locals = new ArrayList<>();
    if (!isStatic) {
      locals.add(constructor ? Opcodes.UNINITIALIZED_THIS : owner);
    }
    for (Type argument : arguments) {
      locals.add(switch (argument.getSort()) {
        case Type.BOOLEAN, Type.CHAR, Type.BYTE, Type.SHORT, Type.INT -> Opcodes.INTEGER;
        case Type.FLOAT -> Opcodes.FLOAT;
        case Type.LONG -> Opcodes.LONG;
        case Type.DOUBLE -> Opcodes.DOUBLE;
        case Type.ARRAY -> argument.getDescriptor();
        default -> argument.getInternalName();
      });
    }
    return locals.toArray();
  }

  /** The instance alone ({@link #isStatic()} and constructors excluded). */
  Object[] thisOnly() {
    return new Object[] {owner};
  }

  private static boolean isReference(Type type) {
    return type.getSort() == Type.OBJECT || type.getSort() == Type.ARRAY;
  }
}
