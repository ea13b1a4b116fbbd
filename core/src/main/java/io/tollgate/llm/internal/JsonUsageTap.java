package io.tollgate.llm.internal;

import io.tollgate.llm.Usage;

/** The tap for a JSON body: the usage counts only if the body is complete, well-formed JSON. */
final class JsonUsageTap extends SafeUsageTap {

  private final UsageCollector collector;
  private final JsonDocument body;

  JsonUsageTap(UsageCollector collector) {
    this.collector = collector;
    collector.startDocument();
    this.body = new JsonDocument(collector);
  }

  @Override
  void bytes(byte[] b, int off, int len) {
    body.feed(b, off, len);
  }

  @Override
  void end() {
    collector.endDocument(body.end());
  }

  @Override
  Usage compute() {
    return collector.result();
  }
}
