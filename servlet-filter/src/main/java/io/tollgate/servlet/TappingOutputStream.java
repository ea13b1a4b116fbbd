package io.tollgate.servlet;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import java.io.IOException;
import java.nio.ByteBuffer;

/** The container's output stream, every written byte also shown to the call's usage tap. */
final class TappingOutputStream extends ServletOutputStream {

  private final ServletOutputStream out;
  private final InboundCall call;
  private final byte[] one = new byte[1];

  TappingOutputStream(ServletOutputStream out, InboundCall call) {
    this.out = out;
    this.call = call;
  }

  boolean wraps(ServletOutputStream stream) {
    return out == stream;
  }

  @Override
  public void write(int b) throws IOException {
    out.write(b);
    one[0] = (byte) b;
    call.onBytes(one, 0, 1);
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    out.write(b, off, len);
    call.onBytes(b, off, len);
  }

  @Override
  public void write(ByteBuffer buffer) throws IOException {
    ByteBuffer written = buffer.duplicate();
    out.write(buffer);
    written.limit(buffer.position());
    byte[] copy = new byte[written.remaining()];
    written.get(copy);
    call.onBytes(copy, 0, copy.length);
  }

  @Override
  public void flush() throws IOException {
    out.flush();
  }

  /** The app says the body is complete: settled now, before the container ends the response. */
  @Override
  public void close() throws IOException {
    call.end(null);
    out.close();
  }

  @Override
  public boolean isReady() {
    return out.isReady();
  }

  @Override
  public void setWriteListener(WriteListener writeListener) {
    out.setWriteListener(writeListener);
  }
}
