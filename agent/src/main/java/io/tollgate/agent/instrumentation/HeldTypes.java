package io.tollgate.agent.instrumentation;

import io.tollgate.agent.InternalFailures;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.IllegalClassFormatException;
import java.security.ProtectionDomain;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

/**
 * The agent's one registered transformer: it knows the instrumented types by name only, so every
 * other class the app loads passes it without ByteBuddy being asked or even loaded. A named type
 * goes to ByteBuddy's transformer, and one that loads while that transformer is still being built
 * ({@link AgentInstaller#build}) waits for it at its load: no client class escapes its advice.
 */
final class HeldTypes implements ClassFileTransformer {

  private static final long MAX_WAIT_SECONDS = 30;

  /** Internal names ({@code okhttp3/RealCall}), as the JVM hands them to a transformer. */
  private final Set<String> internalNames;
  private final CompletableFuture<ClassFileTransformer> built = new CompletableFuture<>();
  private volatile Thread builder;

  HeldTypes(Set<String> binaryNames) {
    this.internalNames = binaryNames.stream().map(name -> name.replace('.', '/'))
        .collect(Collectors.toUnmodifiableSet());
  }

  /** The thread that builds: a named type it loads itself cannot wait for its own build. */
  void building(Thread thread) {
    builder = thread;
  }

  /** ByteBuddy's transformer is ready; null when it could not be built (types load unchanged). */
  void ready(ClassFileTransformer transformer) {
    built.complete(transformer);
  }

  @Override
  public byte[] transform(Module module, ClassLoader loader, String className,
      Class<?> classBeingRedefined, ProtectionDomain domain, byte[] classFile)
      throws IllegalClassFormatException {
    if (className == null || !internalNames.contains(className)
        || Thread.currentThread() == builder && !built.isDone()) {
      return null;
    }
    ClassFileTransformer transformer = awaitBuilt(className);
    return transformer == null ? null
        : transformer.transform(module, loader, className, classBeingRedefined, domain, classFile);
  }

  /**
   * The build loads only the agent's own classes and takes no lock of the app's, so it ends; as a
   * last resort the wait is bounded, and the type then loads without its advice.
   */
  private ClassFileTransformer awaitBuilt(String className) {
    try {
      return built.get(MAX_WAIT_SECONDS, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      InternalFailures.record("instrumenting " + className + ": the advice was not built within "
          + MAX_WAIT_SECONDS + " s", e);
    } catch (ExecutionException e) {
      InternalFailures.record("instrumenting " + className, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return null;
  }
}
