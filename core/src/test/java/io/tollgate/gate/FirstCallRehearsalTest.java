package io.tollgate.gate;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.llm.ProviderApi;
import io.tollgate.llm.Usage;
import java.util.EnumSet;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The made-up call a gate reads as it is built runs the real readers of each API through. */
class FirstCallRehearsalTest {

  @ParameterizedTest
  @EnumSource(ProviderApi.class)
  void readsTheReplysUsageAsAProvidersCallWouldBeRead(ProviderApi api) {
    assertThat(FirstCallRehearsal.rehearse(api, 4096))
        .isEqualTo(Usage.reported(9, 1, 0, 0, Optional.empty()));
  }

  @Test
  void rehearsesEveryApiOnAThreadOfItsOwnThatEnds() throws Exception {
    Thread rehearsal = FirstCallRehearsal.start(EnumSet.allOf(ProviderApi.class), 4096).orElseThrow();

    assertThat(rehearsal.getName()).isEqualTo("tollgate-first-call-warm-up");
    assertThat(rehearsal.isDaemon()).isTrue();
    rehearsal.join(20_000);
    assertThat(rehearsal.isAlive()).as("still rehearsing after 20 s").isFalse();
  }

  @Test
  void aGateWithoutProvidersStartsNoRehearsal() {
    assertThat(FirstCallRehearsal.start(EnumSet.noneOf(ProviderApi.class), 4096)).isEmpty();
  }
}
