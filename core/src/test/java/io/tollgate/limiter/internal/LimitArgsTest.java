package io.tollgate.limiter.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.limiter.Algorithm;
import io.tollgate.limiter.Dimension;
import io.tollgate.limiter.Limit;
import io.tollgate.limiter.Limits;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The limits' part of the limiter script's arguments, as lua/limiter.lua reads it. */
class LimitArgsTest {

  private static List<String> text(List<byte[]> args) {
    return args.stream().map(arg -> new String(arg, StandardCharsets.UTF_8)).toList();
  }

  @Test
  void theCountThenSixFieldsPerLimitInOrder() {
    Limits limits = Limits.of(Limit.requests(5, Duration.ofMinutes(1)),
        Limit.of(Dimension.TOKENS, 1000, Duration.ofSeconds(1), Algorithm.SLIDING_WINDOW));

    assertThat(text(LimitArgs.of(limits))).containsExactly("2",
        "rb60000000:5", "0", "0", "5", "60000000", "1",
        "tw1000000:1000", "1", "1", "1000", "1000000", "1");
  }

  @Test
  void equalLimitsShareOneEncodingThatCannotBeChanged() {
    List<byte[]> first = LimitArgs.of(Limits.of(Limit.tokens(777, Duration.ofHours(1))));
    List<byte[]> again = LimitArgs.of(Limits.of(Limit.tokens(777, Duration.ofHours(1))));

    assertThat(again).isSameAs(first);
    assertThatThrownBy(() -> first.add(new byte[0])).isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void numbersAsTheirDecimalDigits() {
    assertThat(new String(LimitArgs.number(-42), StandardCharsets.US_ASCII)).isEqualTo("-42");
    assertThat(new String(LimitArgs.number(Long.MAX_VALUE), StandardCharsets.US_ASCII))
        .isEqualTo("9223372036854775807");
  }
}
