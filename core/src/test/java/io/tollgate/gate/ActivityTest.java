package io.tollgate.gate;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.llm.Quota;
import io.tollgate.llm.QuotaKind;
import io.tollgate.router.BreakerState;
import io.tollgate.router.BreakerTransition;
import io.tollgate.router.TransitionReason;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class ActivityTest {

  private static final Instant NOW = Instant.parse("2026-12-03T10:00:00Z");
  private final Activity activity = new Activity(List.of("openai", "backup"),
      Clock.fixed(NOW, ZoneOffset.UTC));

  @Test
  void countsAnswersByKindAndKeepsTheLatestReportedQuota() {
    Quota requests = new Quota(OptionalLong.of(500), OptionalLong.of(420), Optional.of(Duration.ofSeconds(7)));
    activity.answered("openai", 200, Map.of(QuotaKind.REQUESTS, requests));
    activity.answered("openai", 429, Map.of());
    activity.answered("openai", 503, Map.of());
    activity.unreachable("openai");
    activity.answered("nobody", 200, Map.of());

    Activity.ProviderSnapshot openai = activity.providers().get("openai");
    assertThat(openai.answered()).isEqualTo(3);
    assertThat(openai.rateLimited()).isEqualTo(1);
    assertThat(openai.failed()).isEqualTo(2);
    assertThat(openai.attempts()).isEqualTo(0.4);
    assertThat(openai.reported()).containsExactly(Map.entry(QuotaKind.REQUESTS, requests));
    assertThat(activity.providers()).containsOnlyKeys("openai", "backup");
  }

  @Test
  void keepsTheLatestTransitionsNewestFirst() {
    for (int i = 0; i < Activity.TRANSITIONS_KEPT + 2; i++) {
      activity.transition(new BreakerTransition("openai", BreakerState.CLOSED, BreakerState.OPEN,
          TransitionReason.FAILURES, NOW.plusSeconds(i), Optional.empty()));
    }
    activity.transition(new BreakerTransition("openai", BreakerState.OPEN, BreakerState.HALF_OPEN,
        TransitionReason.OPEN_TIME_ENDED, NOW.plusSeconds(60), Optional.empty()));

    List<Activity.Transition> transitions = activity.providers().get("openai").transitions();
    assertThat(transitions).hasSize(Activity.TRANSITIONS_KEPT);
    assertThat(transitions.get(0)).isEqualTo(new Activity.Transition(NOW.plusSeconds(60), "open",
        "half_open", "open_time_ended"));
  }

  @Test
  void listsOnlyDecisionsThatWereNotPlainAdmissionsAndBoundsThem() {
    activity.decided(event("allowed", false), null, null);
    activity.decided(event("allowed", true), null, null);
    activity.decided(event("fallback", false), null, null);
    for (int i = 0; i < Activity.RECENT_DECISIONS; i++) {
      activity.decided(event("denied", false), null, null);
    }

    List<Activity.DecisionEvent> recent = activity.recentDecisions();
    assertThat(recent).hasSize(Activity.RECENT_DECISIONS);
    assertThat(recent).extracting(Activity.DecisionEvent::decision).containsOnly("denied");
    assertThat(activity.providers().get("openai").refused()).isEqualTo(Activity.RECENT_DECISIONS);
  }

  @Test
  void followsAtMostSoManyTenantsDroppingTheQuietest() {
    activity.decided(event("allowed", false), "hot", null);
    activity.decided(event("denied", false), "hot", null);
    for (int i = 0; i < Activity.MAX_TENANTS + 5; i++) {
      activity.decided(event("allowed", false), "t" + i, null);
    }

    List<Activity.TenantSnapshot> busiest = activity.busiestTenants(3);
    assertThat(busiest).hasSize(3);
    assertThat(busiest.get(0).calls()).isEqualTo(2);
    assertThat(busiest.get(0).refused()).isEqualTo(1);
    // at the bound a quarter went at once (never 'hot', which had the most calls); 6 came since
    assertThat(activity.busiestTenants(Integer.MAX_VALUE))
        .hasSize(Activity.MAX_TENANTS - Activity.MAX_TENANTS / 4 + 6);
  }

  private static Activity.DecisionEvent event(String decision, boolean degraded) {
    return new Activity.DecisionEvent(NOW, decision, "outbound", "openai", null, "tenant-name", null,
        degraded, "gpt-4o");
  }
}
