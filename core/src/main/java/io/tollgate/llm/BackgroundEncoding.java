package io.tollgate.llm;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingRegistry;
import com.knuddels.jtokkit.api.EncodingType;
import java.lang.System.Logger.Level;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * One of jtokkit's encodings, loaded on Tollgate's tokenizer thread at the first ask and never on
 * the thread that asks: jtokkit reads an encoding's whole vocabulary from its file, a cost no
 * request should wait for. Until it is loaded {@link #now()} is null and {@link TokenCounter}
 * estimates. A load that fails is logged and not tried again: counts stay estimates, which the
 * provider's usage corrects at settle.
 */
final class BackgroundEncoding {

  private static final System.Logger LOG = System.getLogger(TokenCounter.class.getName());

  /** Lazy: an encoding is read from its file when first asked for, once per JVM. */
  private static final EncodingRegistry JTOKKIT = Encodings.newLazyEncodingRegistry();

  /**
   * One daemon thread loads the encodings in turn, so that a JVM that is starting lends one core
   * to them at most; it ends as soon as there is nothing left to load (no idle keep-alive: a
   * container that undeploys a WAR names a thread still holding its loader as a leak).
   */
  private static final Executor TOKENIZER_THREAD = new ThreadPoolExecutor(0, 1, 0,
      TimeUnit.SECONDS, new LinkedBlockingQueue<>(), task -> {
        Thread thread = new Thread(task, "tollgate-tokenizer-load");
        thread.setDaemon(true);
        return thread;
      });

  private final String name;
  private final Supplier<Encoding> load;
  private final AtomicBoolean started = new AtomicBoolean();
  private final CompletableFuture<Encoding> loaded = new CompletableFuture<>();
  private volatile Encoding encoding;

  /** {@code type} as jtokkit publishes it. */
  static BackgroundEncoding of(EncodingType type) {
    return new BackgroundEncoding(type.getName(), () -> JTOKKIT.getEncoding(type));
  }

  /** An encoding named {@code name} that {@code load} makes (tests: a load that waits or fails). */
  BackgroundEncoding(String name, Supplier<Encoding> load) {
    this.name = name;
    this.load = load;
  }

  String name() {
    return name;
  }

  /** Starts the load on the tokenizer thread unless it has started; completed once it has ended. */
  CompletableFuture<Encoding> load() {
    if (started.compareAndSet(false, true)) {
      TOKENIZER_THREAD.execute(this::loadNow);
    }
    return loaded;
  }

  /** The loaded encoding, or null while it loads; the load starts now if it had not. */
  Encoding now() {
    Encoding e = encoding;
    if (e == null) {
      load();
    }
    return e;
  }

  private void loadNow() {
    try {
      Encoding e = load.get();
      encoding = e;
      loaded.complete(e);
    } catch (RuntimeException | Error e) {
      LOG.log(Level.WARNING, name + " could not be loaded: its token counts stay estimates of "
          + TokenCounter.CHARS_PER_TOKEN_WHILE_LOADING + " characters a token", e);
      loaded.completeExceptionally(e);
    }
  }
}
