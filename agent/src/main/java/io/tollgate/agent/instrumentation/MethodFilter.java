package io.tollgate.agent.instrumentation;

import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.Type;

/**
 * Which methods of an instrumented type get a hook, decided from what the class file says of each
 * method (access flags, name, descriptor): nothing is loaded to decide, as the type itself is
 * being loaded.
 */
@FunctionalInterface
public interface MethodFilter {

  boolean matches(int access, String name, String descriptor);

  /** Methods called {@code name} taking {@code arguments} arguments. */
  static MethodFilter named(String name, int arguments) {
    return (access, method, descriptor) -> method.equals(name)
        && Type.getArgumentTypes(descriptor).length == arguments;
  }

  /** Every constructor. */
  static MethodFilter constructors() {
    return (access, method, descriptor) -> method.equals("<init>");
  }

  /** The constructors whose first argument is of the type {@code binaryName} ({@code a.B$C}). */
  static MethodFilter constructorsTaking(String binaryName) {
    String first = "(L" + binaryName.replace('.', '/') + ";";
    return (access, method, descriptor) -> method.equals("<init>") && descriptor.startsWith(first);
  }

  /** The methods this filter matches that are public. */
  default MethodFilter andPublic() {
    return (access, method, descriptor) ->
        (access & Opcodes.ACC_PUBLIC) != 0 && matches(access, method, descriptor);
  }
}
