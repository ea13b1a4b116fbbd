package io.tollgate.llm.internal;

/**
 * Splits a text/event-stream into events as its bytes arrive, per the HTML Living Standard's
 * "Interpreting an event stream": lines end in CRLF, LF or CR (a CRLF may straddle two chunks); a
 * leading UTF-8 BOM is dropped; {@code :} starts a comment; {@code data:} with or without a
 * space; several data lines of one event are joined with LF; a blank line ends the event.
 *
 * <p>Only {@code data} matters here (OpenAI and Anthropic repeat the event name as the JSON's
 * {@code type}); other fields are skipped as they arrive. Data bytes are handed on as they come,
 * never collected, so an event of any size takes no memory here. CR and LF never occur inside a
 * multi-byte UTF-8 sequence, so splitting bytes cannot cut a character in the data's JSON.
 *
 * <p>One leniency: data left pending when the stream ends is dispatched (a browser drops it), so
 * that a provider that omits the last blank line still counts.
 */
final class SseDecoder {

  /** Receives the data of events. */
  interface Sink {
    void eventStart();

    void data(byte[] b, int off, int len);

    /** Between two data lines of the same event. */
    void dataLineBreak();

    void eventEnd();
  }

  private enum State { LINE_START, FIELD, DATA, SKIP }

  private static final int FIELD_MAX = 16;

  private final Sink sink;
  private final byte[] field = new byte[FIELD_MAX];
  private State state = State.LINE_START;
  private int fieldLength;
  private boolean afterCr;
  private boolean firstLine = true;
  private boolean valueStarted;
  private boolean inEvent;

  SseDecoder(Sink sink) {
    this.sink = sink;
  }

  void feed(byte[] b, int off, int len) {
    int i = off;
    int end = off + len;
    while (i < end) {
      if (afterCr) {
        afterCr = false;
        if (b[i] == '\n') {
          i++;
          continue;
        }
      }
      if (state == State.DATA || state == State.SKIP) {
        int eol = i;
        while (eol < end && b[eol] != '\n' && b[eol] != '\r') {
          eol++;
        }
        if (state == State.DATA) {
          int from = i;
          if (!valueStarted && eol > from) {
            valueStarted = true;
            if (b[from] == ' ') {
              from++;
            }
          }
          if (eol > from) {
            sink.data(b, from, eol - from);
          }
        }
        if (eol == end) {
          return;
        }
        lineEnd(b[eol]);
        i = eol + 1;
      } else {
        byte c = b[i++];
        if (c == '\n' || c == '\r') {
          fieldLineEnd();
          lineEnd(c);
        } else if (c == ':') {
          if (isData()) {
            dataLine();
            state = State.DATA;
            valueStarted = false;
          } else {
            state = State.SKIP; // a comment, or a field other than data
          }
        } else if (fieldLength < FIELD_MAX) {
          field[fieldLength++] = c;
          state = State.FIELD;
        } else {
          state = State.SKIP;
        }
      }
    }
  }

  /** The stream ended: an event still open is dispatched. */
  void finish() {
    if (inEvent) {
      inEvent = false;
      sink.eventEnd();
    }
  }

  /** A line that ended before any colon: blank (dispatch), or a field with an empty value. */
  private void fieldLineEnd() {
    int start = bomLength();
    if (fieldLength - start == 0) {
      if (inEvent) {
        inEvent = false;
        sink.eventEnd();
      }
    } else if (isData()) {
      dataLine();
    }
  }

  private void lineEnd(byte c) {
    afterCr = c == '\r';
    state = State.LINE_START;
    fieldLength = 0;
    firstLine = false;
  }

  private void dataLine() {
    if (inEvent) {
      sink.dataLineBreak();
    } else {
      inEvent = true;
      sink.eventStart();
    }
  }

  private boolean isData() {
    int s = bomLength();
    return fieldLength - s == 4
        && field[s] == 'd' && field[s + 1] == 'a' && field[s + 2] == 't' && field[s + 3] == 'a';
  }

  private int bomLength() {
    return firstLine && fieldLength >= 3
        && field[0] == (byte) 0xEF && field[1] == (byte) 0xBB && field[2] == (byte) 0xBF ? 3 : 0;
  }
}
