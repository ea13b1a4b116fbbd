package io.tollgate.agent.okhttp.helpers;

import io.tollgate.gate.UsageObserver;
import java.io.OutputStream;

/** Hands bytes copied out of okio's buffer to a {@link UsageObserver}, without a copy of ours. */
final class UsageObserverStream extends OutputStream {

  private final UsageObserver usage;

  UsageObserverStream(UsageObserver usage) {
    this.usage = usage;
  }

  @Override
  public void write(int b) {
    usage.onBytes(new byte[] {(byte) b}, 0, 1);
  }

  @Override
  public void write(byte[] bytes, int offset, int length) {
    usage.onBytes(bytes, offset, length);
  }
}
