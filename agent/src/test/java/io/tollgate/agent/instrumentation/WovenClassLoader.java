package io.tollgate.agent.instrumentation;

/**
 * Defines one woven class from its bytes and loads everything else from the tests' loader (the
 * hooks included): the woven class is thus another class than the one compiled, in another
 * runtime package, as a client's class is to the agent.
 */
final class WovenClassLoader extends ClassLoader {
  private final String name;
  private final byte[] classFile;

  WovenClassLoader(String name, byte[] classFile) {
    super(WovenClassLoader.class.getClassLoader());
    this.name = name;
    this.classFile = classFile;
  }

  @Override
  protected Class<?> loadClass(String className, boolean resolve) throws ClassNotFoundException {
    if (className.equals(name)) {
      synchronized (getClassLoadingLock(className)) {
        Class<?> loaded = findLoadedClass(className);
        return loaded != null ? loaded : defineClass(className, classFile, 0, classFile.length);
      }
    }
    return super.loadClass(className, resolve);
  }
}
