package io.tollgate.llm.internal;

import io.tollgate.llm.Usage;

/** The tap for a text/event-stream body: each event's data is one JSON document. */
final class SseUsageTap extends SafeUsageTap implements SseDecoder.Sink {

  private static final byte[] LF = {'\n'};

  private final SseDecoder decoder = new SseDecoder(this);
  private final UsageCollector collector;
  private final JsonDocument event;

  SseUsageTap(UsageCollector collector) {
    this.collector = collector;
    this.event = new JsonDocument(collector);
  }

  @Override
  void bytes(byte[] b, int off, int len) {
    decoder.feed(b, off, len);
  }

  @Override
  void end() {
    decoder.finish();
  }

  @Override
  Usage compute() {
    return collector.result();
  }

  @Override
  public void eventStart() {
    collector.startDocument();
  }

  @Override
  public void data(byte[] b, int off, int len) {
    event.feed(b, off, len);
  }

  @Override
  public void dataLineBreak() {
    event.feed(LF, 0, 1);
  }

  @Override
  public void eventEnd() {
    // "[DONE]" and other non-JSON data simply fail to parse and count for nothing.
    collector.endDocument(event.end());
  }
}
