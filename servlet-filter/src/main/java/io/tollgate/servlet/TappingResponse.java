package io.tollgate.servlet;

import io.tollgate.llm.Headers;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;

/**
 * The response as the app sees it behind the filter: every byte or character it writes goes to the
 * container at once (a flush is a flush, so SSE events leave as the app flushes them) and a copy is
 * shown to the call's usage tap. Nothing is buffered here. The rate-limit headers set before the
 * app ran survive a {@link #reset()}.
 */
final class TappingResponse extends HttpServletResponseWrapper {

  private final InboundCall call;
  private final List<Headers.Field> limitHeaders;
  private TappingOutputStream stream;
  private TappingWriter writer;

  TappingResponse(HttpServletResponse response, InboundCall call, List<Headers.Field> limitHeaders) {
    super(response);
    this.call = call;
    this.limitHeaders = limitHeaders;
    setLimitHeaders();
  }

  private void setLimitHeaders() {
    for (Headers.Field field : limitHeaders) {
      setHeader(field.name(), field.value());
    }
  }

  @Override
  public ServletOutputStream getOutputStream() throws IOException {
    ServletOutputStream out = super.getOutputStream(); // the container enforces stream-or-writer
    if (stream == null || !stream.wraps(out)) {
      stream = new TappingOutputStream(out, call);
    }
    return stream;
  }

  @Override
  public PrintWriter getWriter() throws IOException {
    PrintWriter out = super.getWriter();
    if (writer == null || !writer.wraps(out)) {
      writer = new TappingWriter(out, call);
    }
    return writer;
  }

  @Override
  public void reset() {
    super.reset();
    call.restart();
    setLimitHeaders();
  }

  @Override
  public void resetBuffer() {
    super.resetBuffer();
    call.restart();
  }
}
