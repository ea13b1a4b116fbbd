package io.tollgate.llm.internal;

import io.tollgate.llm.Usage;
import io.tollgate.llm.UsageTap;
import java.util.function.Supplier;

/**
 * For a body whose content type says nothing useful: its first significant byte decides. {@code
 * {}} or {@code [} is JSON; a field name or {@code :} is SSE; anything else (an HTML error page)
 * has no usage.
 */
final class SniffingUsageTap extends SafeUsageTap {

  private final Supplier<UsageTap> json;
  private final Supplier<UsageTap> sse;
  private UsageTap chosen;
  private boolean none;

  SniffingUsageTap(Supplier<UsageTap> json, Supplier<UsageTap> sse) {
    this.json = json;
    this.sse = sse;
  }

  @Override
  void bytes(byte[] b, int off, int len) {
    if (none) {
      return;
    }
    if (chosen == null) {
      for (int i = off; i < off + len && chosen == null && !none; i++) {
        byte c = b[i];
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == (byte) 0xEF || c == (byte) 0xBB
            || c == (byte) 0xBF) {
          continue; // blanks and a BOM
        }
        if (c == '{' || c == '[') {
          chosen = json.get();
        } else if ((c >= 'a' && c <= 'z') || c == ':') {
          chosen = sse.get();
        } else {
          none = true;
        }
      }
      if (chosen == null) {
        return;
      }
    }
    chosen.onBytes(b, off, len);
  }

  @Override
  void end() {
    if (chosen != null) {
      chosen.onEnd();
    }
  }

  @Override
  Usage compute() {
    return chosen == null ? Usage.unknown() : chosen.result();
  }
}
