package io.tollgate.testkit.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class FaultScriptTest {

    private final FaultScript script = new FaultScript();

    private List<String> draw(int times) {
        return IntStream.range(0, times).mapToObj(i -> script.draw().toString()).toList();
    }

    @Test
    void drawsNoFaultWhenNothingIsScripted() {
        assertThat(draw(2)).containsExactly("Fault.none", "Fault.none");
    }

    @Test
    void queuedFaultsComeFirstInOrderThenTheStandingRule() {
        script.next(2, Fault.status(500)).next(1, Fault.overloaded()).always(Fault.status(503));

        assertThat(script.queuedCount()).isEqualTo(3);
        assertThat(draw(5)).containsExactly("Fault.status(500)", "Fault.status(500)", "Fault.overloaded()",
                "Fault.status(503)", "Fault.status(503)");
        assertThat(script.queuedCount()).isZero();
    }

    @Test
    void afterSuccessesQueuesSuccessesBeforeTheFault() {
        script.afterSuccesses(2, Fault.rateLimited(Duration.ofSeconds(1)));

        assertThat(draw(4)).containsExactly("Fault.none", "Fault.none", "Fault.rateLimited(PT1S)",
                "Fault.rateLimited(PT1S)");
    }

    @Test
    void withProbabilityFollowsTheSeededRandomExactly() {
        script.withProbability(0.3, 42, Fault.status(500));
        Random expected = new Random(42);

        List<String> drawn = draw(200);

        assertThat(drawn).containsExactlyElementsOf(IntStream.range(0, 200)
                .mapToObj(i -> expected.nextDouble() < 0.3 ? "Fault.status(500)" : "Fault.none").toList());
        assertThat(drawn).contains("Fault.status(500)", "Fault.none");
    }

    @Test
    void clearDropsQueueAndStandingRule() {
        script.next(3, Fault.status(500)).always(Fault.status(503));

        script.clear();

        assertThat(script.queuedCount()).isZero();
        assertThat(draw(1)).containsExactly("Fault.none");
    }

    @Test
    void describesFaultsAsTheyAreWritten() {
        assertThat(Fault.tokenRateLimited(Duration.ofMillis(1500)).withLatency(Duration.ofMillis(20)))
                .hasToString("Fault.tokenRateLimited(PT1.5S).withLatency(PT0.02S)");
        assertThat(Fault.resetMidStream()).hasToString("Fault.resetMidStream(2)");
        assertThat(Fault.latency(Duration.ofSeconds(1))).hasToString("Fault.none.withLatency(PT1S)");
    }

    @Test
    void rejectsImpossibleScriptsNamingTheValue() {
        assertThatThrownBy(() -> script.next(0, Fault.none())).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("count must be >= 1, was 0");
        assertThatThrownBy(() -> script.withProbability(1.5, 1, Fault.none()))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("probability must be within 0..1, was 1.5");
        assertThatThrownBy(() -> Fault.status(302)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("status must be within 400..599, was 302");
        assertThatThrownBy(() -> Fault.resetMidStream(-1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("eventsBeforeReset must be >= 0, was -1");
        assertThatThrownBy(() -> Fault.none().withLatency(Duration.ofMillis(-5)))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("latency must be >= 0, was PT-0.005S");
    }
}
