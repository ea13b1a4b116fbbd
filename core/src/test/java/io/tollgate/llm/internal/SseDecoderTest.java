package io.tollgate.llm.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Framing per the HTML Living Standard's "Interpreting an event stream", for data fields. */
class SseDecoderTest {

  /** The data of each dispatched event, as text. */
  private static List<String> events(String stream, int... splits) {
    List<String> events = new ArrayList<>();
    ByteArrayOutputStream data = new ByteArrayOutputStream();
    SseDecoder decoder = new SseDecoder(new SseDecoder.Sink() {
      @Override
      public void eventStart() {
        data.reset();
      }

      @Override
      public void data(byte[] b, int off, int len) {
        data.write(b, off, len);
      }

      @Override
      public void dataLineBreak() {
        data.write('\n');
      }

      @Override
      public void eventEnd() {
        events.add(data.toString(StandardCharsets.UTF_8));
      }
    });
    byte[] bytes = stream.getBytes(StandardCharsets.UTF_8);
    int from = 0;
    for (int split : splits) {
      decoder.feed(bytes, from, split - from);
      from = split;
    }
    decoder.feed(bytes, from, bytes.length - from);
    decoder.finish();
    return events;
  }

  @Test
  void aBlankLineEndsAnEventWhateverTheLineEnding() {
    assertThat(events("data: a\n\ndata: b\n\n")).containsExactly("a", "b");
    assertThat(events("data: a\r\n\r\ndata: b\r\n\r\n")).containsExactly("a", "b");
    assertThat(events("data: a\r\rdata: b\r\r")).containsExactly("a", "b");
    assertThat(events("data: a\r\n\ndata: b\n\r\n")).containsExactly("a", "b");
  }

  @Test
  void aCrlfSplitBetweenTwoChunksIsOneLineEnd() {
    // "data: a\r" | "\ndata: b\r" | "\n\r\n": had the LF after a CR counted as a blank line,
    // "a" and "b" would be two events.
    assertThat(events("data: a\r\ndata: b\r\n\r\n", 8, 18)).containsExactly("a\nb");
  }

  @Test
  void theSpaceAfterTheColonIsOptionalAndOnlyOneIsRemoved() {
    assertThat(events("data:a\n\ndata: b\n\ndata:  c\n\n")).containsExactly("a", "b", " c");
    assertThat(events("data: x\n\n", 5, 6)).containsExactly("x");
  }

  @Test
  void severalDataLinesAreJoinedWithLf() {
    assertThat(events("data: {\"a\":\ndata: 1}\n\n")).containsExactly("{\"a\":\n1}");
  }

  @Test
  void commentsAndOtherFieldsAreSkipped() {
    assertThat(events(": hello\nevent: message_start\nid: 1\nretry: 10\ndata: x\n: mid-event\ndata: y\n\n"))
        .containsExactly("x\ny");
    assertThat(events(": only a comment\n\n")).isEmpty();
    assertThat(events("event: ping\n\n")).isEmpty();
  }

  @Test
  void aFieldWithoutAColonHasAnEmptyValue() {
    assertThat(events("data\n\n")).containsExactly("");
    assertThat(events("data\ndata: x\n\n")).containsExactly("\nx");
  }

  @Test
  void fieldNamesAreExact() {
    assertThat(events("Data: x\n\ndatas: y\n\n database: z\n\n")).isEmpty();
    assertThat(events("averyveryverylongfieldname: x\n\n")).isEmpty();
  }

  @Test
  void aLeadingBomIsDroppedOnlyAtTheStart() {
    assertThat(events("\uFEFFdata: a\n\n")).containsExactly("a");
    assertThat(events("data: a\n\n\uFEFFdata: b\n\n")).containsExactly("a");
  }

  @Test
  void anEventLeftOpenAtTheEndIsStillDispatched() {
    assertThat(events("data: a\n\ndata: b")).containsExactly("a", "b");
    assertThat(events("data: a\n\n: trailing comment")).containsExactly("a");
  }

  @Test
  void dataIsHandedOnAsItArrivesUnbuffered() {
    assertThat(events("data: abcdef\n\n", 7, 8, 9, 10, 11)).containsExactly("abcdef");
  }
}
