package io.tollgate.demo;

import io.tollgate.testkit.llm.MockLlmServer;
import io.tollgate.testkit.llm.RecordedRequest;
import java.time.Duration;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** The console line printed every second while the app runs. */
final class Progress {

  private Progress() {}

  static String line(Recorder recorder, MockLlmServer primary, MockLlmServer backup, Duration run) {
    long start = recorder.startEpochMillis();
    Duration elapsed = Duration.ofMillis(Math.max(0, System.currentTimeMillis() - start));
    List<RecordedRequest> atPrimary = primary.requests();
    List<RecordedRequest> atBackup = backup.requests();
    Map<Fate, Integer> fates = fates(recorder.calls(), ids(atPrimary), ids(atBackup));
    String breaker = "CLOSED";
    for (BreakerEvent event : recorder.breakerEvents()) {
      if (event.provider().equals(DemoConfig.PRIMARY)) {
        breaker = event.to();
      }
    }
    return String.format("  %3ds  %-14s calls %4d | primary ok %4d | backup %4d | Tollgate 429 %3d"
            + " | provider errors %3d | requests: primary %4d, backup %4d | primary breaker %s",
        elapsed.toSeconds(), Phase.at(elapsed, run).name().toLowerCase(Locale.ROOT).replace('_', '-'),
        recorder.calls().size(), fates.getOrDefault(Fate.PRIMARY, 0),
        fates.getOrDefault(Fate.FALLBACK_AFTER_ERROR, 0) + fates.getOrDefault(Fate.FALLBACK_SKIPPED_PRIMARY, 0),
        fates.getOrDefault(Fate.LIMITED, 0) + fates.getOrDefault(Fate.NO_PROVIDER, 0),
        fates.getOrDefault(Fate.PROVIDER_ERROR, 0) + fates.getOrDefault(Fate.NO_RESPONSE, 0),
        atPrimary.size(), atBackup.size(), breaker);
  }

  private static Map<Fate, Integer> fates(List<CallOutcome> calls, Set<String> atPrimary, Set<String> atBackup) {
    Map<Fate, Integer> fates = new EnumMap<>(Fate.class);
    for (CallOutcome call : calls) {
      fates.merge(Fate.of(call, atPrimary.contains(call.id()), atBackup.contains(call.id())), 1, Integer::sum);
    }
    return fates;
  }

  private static Set<String> ids(List<RecordedRequest> requests) {
    Set<String> ids = new HashSet<>();
    requests.forEach(r -> ids.add(r.header("x-request-id")));
    return ids;
  }
}
