package io.tollgate.limiter.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.limiter.Algorithm;
import io.tollgate.limiter.Dimension;
import io.tollgate.limiter.Limit;
import io.tollgate.limiter.Limits;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The limits' part of the limiter script's arguments, as lua/limiter.lua reads it. */
class LimitArgsTest {

  @Test
  void theCountThenFieldKindAndFourIntegersPerLimitLittleEndian() {
    Limits limits = Limits.of(Limit.requests(5, Duration.ofMinutes(1)),
        Limit.of(Dimension.TOKENS, 1000, Duration.ofSeconds(1), Algorithm.SLIDING_WINDOW)
            .sharing(0.7));

    ByteBuffer packed = ByteBuffer.wrap(LimitArgs.of(limits)).order(ByteOrder.LITTLE_ENDIAN);

    assertThat(packed.getLong()).isEqualTo(2);
    assertThat(field(packed)).isEqualTo("rb60000000:5");
    assertThat(packed.get()).isEqualTo((byte) 0); // requests, token bucket
    assertThat(new long[] {packed.getLong(), packed.getLong(), packed.getLong(), packed.getLong()})
        .containsExactly(5, 60_000_000, 1, 0);
    assertThat(field(packed)).isEqualTo("tw1000000:1000");
    assertThat(packed.get()).isEqualTo((byte) 5); // tokens (1), sliding window (1 << 2)
    // a class allowed 70 % keeps 300 of the 1,000 for classes allowed more
    assertThat(new long[] {packed.getLong(), packed.getLong(), packed.getLong(), packed.getLong()})
        .containsExactly(1000, 1_000_000, 1, 300);
    assertThat(packed.remaining()).isZero();
  }

  private static String field(ByteBuffer packed) {
    int start = packed.position();
    while (packed.get() != 0) {
      // up to the terminating zero
    }
    return new String(packed.array(), start, packed.position() - start - 1, StandardCharsets.UTF_8);
  }

  @Test
  void equalLimitsShareOneEncoding() {
    byte[] first = LimitArgs.of(Limits.of(Limit.tokens(777, Duration.ofHours(1))));
    byte[] again = LimitArgs.of(Limits.of(Limit.tokens(777, Duration.ofHours(1))));

    assertThat(again).isSameAs(first);
  }
}
