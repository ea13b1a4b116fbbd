package io.tollgate.agent.instrumentation;

import java.lang.instrument.IllegalClassFormatException;
import java.security.ProtectionDomain;
import java.util.Set;
import java.util.stream.Collectors;
import net.bytebuddy.agent.builder.ResettableClassFileTransformer;

/**
 * ByteBuddy's transformer behind a check of the class's name. The JVM hands every class it loads,
 * for the life of the app, to every transformer, and ByteBuddy makes a type pool and a description
 * for each before its matchers see the name; the agent transforms a few named types only. Every
 * other class is passed over here by one set lookup; ByteBuddy sees the named ones alone, and its
 * own matchers still decide those. (A hidden class, a lambda's, comes without a name.)
 */
final class NamedTypesFirst extends ResettableClassFileTransformer.WithDelegation {

  /** The names as the JVM gives them: {@code okhttp3/OkHttpClient$Builder}. */
  private final Set<String> internalNames;
  private volatile boolean stopped;

  NamedTypesFirst(ResettableClassFileTransformer byteBuddy, Set<String> typeNames) {
    super(byteBuddy);
    this.internalNames = typeNames.stream().map(name -> name.replace('.', '/'))
        .collect(Collectors.toUnmodifiableSet());
  }

  /**
   * No class is woven from now on, including one whose weaving is under way: the removal that
   * follows retransforms the classes already loaded, and a class still loading meanwhile would
   * otherwise be defined with the advice after that pass had looked for it.
   */
  void stopWeaving() {
    stopped = true;
  }

  @Override
  public byte[] transform(ClassLoader loader, String internalName, Class<?> redefined,
      ProtectionDomain domain, byte[] classFile) throws IllegalClassFormatException {
    if (!named(internalName)) {
      return null;
    }
    byte[] woven = classFileTransformer.transform(loader, internalName, redefined, domain,
        classFile);
    return stopped ? null : woven;
  }

  @Override
  public byte[] transform(Module module, ClassLoader loader, String internalName,
      Class<?> redefined, ProtectionDomain domain, byte[] classFile)
      throws IllegalClassFormatException {
    if (!named(internalName)) {
      return null;
    }
    byte[] woven = classFileTransformer.transform(module, loader, internalName, redefined, domain,
        classFile);
    return stopped ? null : woven;
  }

  private boolean named(String internalName) {
    return !stopped && internalName != null && internalNames.contains(internalName);
  }
}
