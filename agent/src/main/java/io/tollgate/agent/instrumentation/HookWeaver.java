package io.tollgate.agent.instrumentation;

import java.util.ArrayList;
import java.util.List;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * Writes the calls of {@link HookPoint}s into the methods of one class file, read and written once
 * with ASM: nothing is added to the class (no field, no method), so the result is valid when the
 * class is retransformed too, and no other class is loaded or described to do it. Each method's
 * stack map frames are kept as the compiler wrote them (read expanded), the few the woven code
 * needs added, and the maximum stack and locals computed again.
 *
 * <p>A method whose arguments are not all objects gets no {@link HookPoint.Where#ANSWER} hook (the
 * hooks take objects), nor does one that returns nothing or a primitive.
 */
final class HookWeaver {

  private HookWeaver() {}

  /** {@code classFile} with the calls of {@code points} woven into the methods they match. */
  static byte[] weave(byte[] classFile, List<HookPoint> points) {
    ClassReader reader = new ClassReader(classFile);
    ClassWriter writer = new ClassWriter(reader, ClassWriter.COMPUTE_MAXS);
    reader.accept(new ClassVisitor(Opcodes.ASM9, writer) {
      private String owner;
      private boolean frames;

      @Override
      public void visit(int version, int access, String name, String signature, String superName,
          String[] interfaces) {
        owner = name;
        frames = (version & 0xFFFF) >= Opcodes.V1_6;
        super.visit(version, access, name, signature, superName, interfaces);
      }

      @Override
      public MethodVisitor visitMethod(int access, String name, String descriptor,
          String signature, String[] exceptions) {
        MethodVisitor code = super.visitMethod(access, name, descriptor, signature, exceptions);
        if ((access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) != 0) {
          return code;
        }
        List<HookPoint> here = new ArrayList<>();
        for (HookPoint point : points) {
          if (point.methods().matches(access, name, descriptor)) {
            here.add(point);
          }
        }
        if (here.isEmpty()) {
          return code;
        }
        HookedMethod method = new HookedMethod(code, new MethodShape(owner, access, name,
            descriptor), here, frames);
        return method.hasHooks() ? method : code;
      }
    }, ClassReader.EXPAND_FRAMES);
    return writer.toByteArray();
  }
}
