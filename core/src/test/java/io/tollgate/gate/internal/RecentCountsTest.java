package io.tollgate.gate.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RecentCountsTest {

  @Test
  void countsTheLastSecondsAndForgetsAnEarlierLap() {
    RecentCounts counts = new RecentCounts();
    counts.add(1000);
    counts.add(1000);
    counts.add(1009);
    counts.add(1299);

    assertThat(counts.last(1009, 10)).isEqualTo(3);
    assertThat(counts.last(1010, 10)).isEqualTo(1);
    assertThat(counts.last(1299, RecentCounts.SECONDS)).isEqualTo(4);
    assertThat(counts.lastSecond()).isEqualTo(1299);

    counts.add(1300); // the slot of second 1000, one lap later: 1000's two go
    assertThat(counts.last(1300, RecentCounts.SECONDS)).isEqualTo(3);
    assertThat(counts.last(1300, 1)).isEqualTo(1);
  }
}
