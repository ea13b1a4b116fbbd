package io.tollgate.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

class UsageTappingInputStreamTest {

  private static final byte[] STREAM = Fixtures.bytes("streams/anthropic-text.sse");
  private static final Usage EXPECTED =
      Usage.reported(2125, 15, 2000, 100, Optional.of("claude-sonnet-4-5-20250929"));

  private final List<Usage> completions = new ArrayList<>();

  private UsageTappingInputStream tapping(InputStream in) {
    return UsageTappingInputStream.of(in,
        LlmProtocol.of(ProviderApi.ANTHROPIC).newUsageTap("text/event-stream", true), completions::add);
  }

  /** Hands out the bytes in random short reads, as a socket does. */
  private static InputStream trickling(byte[] bytes, long seed) {
    Random random = new Random(seed);
    return new ByteArrayInputStream(bytes) {
      @Override
      public synchronized int read(byte[] b, int off, int len) {
        return super.read(b, off, Math.min(len, 1 + random.nextInt(37)));
      }
    };
  }

  @Test
  void passesEveryByteThroughUnchangedAndReportsUsageAtTheEnd() throws IOException {
    for (long seed = 1; seed <= 50; seed++) {
      completions.clear();
      try (UsageTappingInputStream in = tapping(trickling(STREAM, seed))) {
        assertThat(in.readAllBytes()).isEqualTo(STREAM);
        assertThat(in.usage()).isEqualTo(EXPECTED);
      }
      assertThat(completions).containsExactly(EXPECTED);
    }
  }

  @Test
  void singleByteReadsAndTransferToAreTappedToo() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (UsageTappingInputStream in = tapping(new ByteArrayInputStream(STREAM))) {
      for (int i = 0; i < 100; i++) {
        out.write(in.read());
      }
      in.transferTo(out);
    }

    assertThat(out.toByteArray()).isEqualTo(STREAM);
    assertThat(completions).containsExactly(EXPECTED);
  }

  @Test
  void skippedBytesAreStillSeenByTheTap() throws IOException {
    try (UsageTappingInputStream in = tapping(new ByteArrayInputStream(STREAM))) {
      assertThat(in.skip(STREAM.length - 10)).isEqualTo(STREAM.length - 10);
      assertThat(in.readAllBytes()).hasSize(10);
    }

    assertThat(completions).containsExactly(EXPECTED);
  }

  @Test
  void bytesReadAgainAfterAResetAreNotCountedTwice() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (UsageTappingInputStream in = tapping(new BufferedInputStream(new ByteArrayInputStream(STREAM)))) {
      assertThat(in.markSupported()).isTrue();
      byte[] first = in.readNBytes(700);
      in.mark(10_000);
      byte[] ahead = in.readNBytes(200);
      in.reset();
      out.write(first);
      out.write(in.readAllBytes());
      assertThat(ahead).isEqualTo(java.util.Arrays.copyOfRange(STREAM, 700, 900));
    }

    assertThat(out.toByteArray()).isEqualTo(STREAM);
    assertThat(completions).containsExactly(EXPECTED);
  }

  @Test
  void closingBeforeTheEndSettlesWhatWasSeenOnce() throws IOException {
    UsageTappingInputStream in = tapping(new ByteArrayInputStream(STREAM));
    in.readNBytes(400); // message_start and part of the first block

    in.close();
    in.close();

    assertThat(completions).containsExactly(
        Usage.estimated(2125, 0, 2000, 100, Optional.of("claude-sonnet-4-5-20250929")));
  }

  @Test
  void aReadFailureReachesTheAppAndTheUsageSoFarIsSettledOnce() throws IOException {
    InputStream failing = new InputStream() {
      private final InputStream data = new ByteArrayInputStream(STREAM, 0, 400);

      @Override
      public int read() throws IOException {
        int b = data.read();
        if (b < 0) {
          throw new IOException("connection reset");
        }
        return b;
      }
    };
    UsageTappingInputStream in = tapping(failing);

    assertThatThrownBy(in::readAllBytes).isInstanceOf(IOException.class).hasMessage("connection reset");
    in.close();

    assertThat(completions).containsExactly(
        Usage.estimated(2125, 0, 2000, 100, Optional.of("claude-sonnet-4-5-20250929")));
  }

  @Test
  void aFailingCompletionHandlerNeverBecomesTheAppsFailure() throws IOException {
    UsageTappingInputStream in = UsageTappingInputStream.of(new ByteArrayInputStream(STREAM),
        LlmProtocol.of(ProviderApi.ANTHROPIC).newUsageTap("text/event-stream", true),
        usage -> {
          throw new IllegalStateException("settle failed");
        });

    assertThat(in.readAllBytes()).isEqualTo(STREAM);
    in.close();
  }

  @Test
  void theTapNeverSeesTheCallersBufferChange() throws IOException {
    byte[] copy = STREAM.clone();
    try (UsageTappingInputStream in = tapping(new ByteArrayInputStream(copy))) {
      byte[] buffer = new byte[64];
      int n;
      while ((n = in.read(buffer, 0, buffer.length)) >= 0) {
        java.util.Arrays.fill(buffer, 0, n, (byte) 0); // the app reuses its buffer at once
      }
    }

    assertThat(copy).isEqualTo(STREAM);
    assertThat(completions).containsExactly(EXPECTED);
  }
}
