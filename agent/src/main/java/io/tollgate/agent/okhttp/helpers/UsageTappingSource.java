package io.tollgate.agent.okhttp.helpers;

import io.tollgate.agent.InternalFailures;
import io.tollgate.gate.UsageObserver;
import java.io.IOException;
import okio.Buffer;
import okio.ForwardingSource;
import okio.Source;

/**
 * The response body as the app reads it, each chunk copied to the call's {@link UsageObserver}
 * as it passes (a stream is never buffered whole). The end of the body, an error, or an early
 * close settles the call's reservation.
 */
final class UsageTappingSource extends ForwardingSource {

  private final UsageObserver usage;
  private final UsageObserverStream copy;
  private boolean finished;

  UsageTappingSource(Source delegate, UsageObserver usage) {
    super(delegate);
    this.usage = usage;
    this.copy = new UsageObserverStream(usage);
  }

  @Override
  public long read(Buffer sink, long byteCount) throws IOException {
    long read;
    try {
      read = super.read(sink, byteCount);
    } catch (IOException | RuntimeException e) {
      fail(e);
      throw e;
    }
    if (finished) {
      return read;
    }
    if (read == -1) {
      finished = true;
      try {
        usage.onEnd();
      } catch (RuntimeException | LinkageError e) {
        InternalFailures.record(TollgateInterceptor.WHERE, e);
      }
    } else if (read > 0) {
      try {
        sink.copyTo(copy, sink.size() - read, read);
      } catch (IOException | RuntimeException | LinkageError e) {
        InternalFailures.record(TollgateInterceptor.WHERE, e);
        fail(e);
      }
    }
    return read;
  }

  @Override
  public void close() throws IOException {
    if (!finished) {
      fail(new IOException("response body closed before its end"));
    }
    super.close();
  }

  private void fail(Throwable error) {
    if (finished) {
      return;
    }
    finished = true;
    try {
      usage.onError(error);
    } catch (RuntimeException | LinkageError e) {
      InternalFailures.record(TollgateInterceptor.WHERE, e);
    }
  }
}
