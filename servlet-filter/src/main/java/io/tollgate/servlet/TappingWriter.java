package io.tollgate.servlet;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;

/**
 * The container's writer, every written character also shown to the call's usage tap as UTF-8
 * (the encoding the tap reads JSON in, whatever the response's charset). Characters reach the
 * container's writer unchanged, so its charset, its buffer and its flushes are the container's own.
 */
final class TappingWriter extends PrintWriter {

  private static final String LINE_SEPARATOR = System.lineSeparator();

  private final PrintWriter container;
  private final InboundCall call;
  /** A high surrogate whose low half has not been written yet; 0 when none. */
  private char pendingHigh;

  TappingWriter(PrintWriter container, InboundCall call) {
    super(container);
    this.container = container;
    this.call = call;
  }

  boolean wraps(PrintWriter writer) {
    return container == writer;
  }

  @Override
  public void write(int c) {
    super.write(c);
    tap(String.valueOf((char) c));
  }

  @Override
  public void write(char[] buf, int off, int len) {
    super.write(buf, off, len);
    tap(new String(buf, off, len));
  }

  @Override
  public void write(String s, int off, int len) {
    super.write(s, off, len);
    tap(s.substring(off, off + len));
  }

  /** The container's own line end (PrintWriter's would bypass {@link #write}). */
  @Override
  public void println() {
    synchronized (lock) {
      container.println();
      tap(LINE_SEPARATOR);
    }
  }

  /** The app says the body is complete: settled now, before the container ends the response. */
  @Override
  public void close() {
    call.end(null);
    super.close();
  }

  private void tap(String text) {
    if (text.isEmpty()) {
      return;
    }
    synchronized (lock) {
      String whole = pendingHigh != 0 ? pendingHigh + text : text;
      pendingHigh = 0;
      char last = whole.charAt(whole.length() - 1);
      if (Character.isHighSurrogate(last)) {
        pendingHigh = last;
        whole = whole.substring(0, whole.length() - 1);
      }
      byte[] bytes = whole.getBytes(StandardCharsets.UTF_8);
      call.onBytes(bytes, 0, bytes.length);
    }
  }
}
