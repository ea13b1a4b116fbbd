package io.tollgate.demo;

import io.tollgate.llm.LlmProtocol;
import io.tollgate.llm.ProviderApi;
import io.tollgate.testkit.llm.RecordedRequest;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * What happened in a run, worked out from the app's call lines, the requests each mock provider
 * recorded and the agent's log lines. Nothing is taken from the agent's internals: a call's fate
 * follows from where its {@code X-Request-Id} arrived, and the tokens Tollgate reserved for an
 * admitted attempt are its estimate of that request, computed by the core's own protocol reader.
 */
record Summary(List<ClientRow> clients, List<ProviderRow> providers, List<BreakerEvent> breakerEvents,
    List<String> coreLog, List<Check> checks, List<Judged> calls, List<TimedTokens> reservations,
    Set<String> instrumented) {

  /** One call and its fate. */
  record Judged(CallOutcome call, Fate fate) {}

  /** Tokens reserved for an attempt that reached a provider, at its arrival. */
  record TimedTokens(long atMillis, long tokens) {}

  /** The calls of one client, plain or streamed. */
  record ClientRow(String client, boolean stream, boolean gated, int calls, Map<Fate, Integer> fates) {

    int count(Fate fate) {
      return fates.getOrDefault(fate, 0);
    }
  }

  /**
   * One provider: requests it received, how many it answered with a 200, and tokens: reserved by
   * Tollgate for the attempts it admitted there, reported as used by the calls it answered for
   * instrumented clients (what those reservations were settled with), and used by calls Tollgate
   * did not see.
   */
  record ProviderRow(String name, int requests, int answered, long reservedTokens, long settledTokens,
      long unmeteredTokens, long spentMicroUsd) {

    int refused() {
      return requests - answered;
    }
  }

  /** A consistency check between what the app logged and what the providers received. */
  record Check(String description, boolean passed) {}

  static Summary of(List<CallOutcome> calls, List<RecordedRequest> primary, List<RecordedRequest> backup,
      List<BreakerEvent> breakerEvents, List<String> coreLog, Set<String> instrumented, long startEpochMillis,
      int doneCalls) {
    Set<String> atPrimary = ids(primary);
    Set<String> atBackup = ids(backup);
    List<Judged> judged = new ArrayList<>(calls.size());
    Map<String, ClientRowBuilder> rows = new LinkedHashMap<>();
    for (String client : List.of("okhttp", "jdk", "apache")) {
      for (boolean stream : new boolean[] {false, true}) {
        rows.put(client + stream, new ClientRowBuilder(client, stream, Instrumented.covers(instrumented, client)));
      }
    }
    Map<String, CallOutcome> byId = new HashMap<>();
    for (CallOutcome call : calls) {
      Fate fate = Fate.of(call, atPrimary.contains(call.id()), atBackup.contains(call.id()));
      judged.add(new Judged(call, fate));
      byId.put(call.id(), call);
      rows.computeIfAbsent(call.client() + call.stream(),
          key -> new ClientRowBuilder(call.client(), call.stream(), Instrumented.covers(instrumented, call.client())))
          .add(fate);
    }
    List<ClientRow> clientRows = rows.values().stream().filter(b -> b.calls > 0).map(ClientRowBuilder::build).toList();

    List<TimedTokens> reservations = new ArrayList<>();
    ProviderRow primaryRow = provider(DemoConfig.PRIMARY, primary, judged, f -> f == Fate.PRIMARY,
        instrumented, startEpochMillis, reservations);
    ProviderRow backupRow = provider(DemoConfig.BACKUP, backup, judged, Fate::answeredByBackup,
        instrumented, startEpochMillis, reservations);
    reservations.sort((a, b) -> Long.compare(a.atMillis(), b.atMillis()));

    List<Check> checks = List.of(
        new Check("the app's last line counts every call it logged (" + doneCalls + ")", doneCalls == calls.size()),
        new Check("every request the providers received belongs to a call the app logged",
            byId.keySet().containsAll(atPrimary) && byId.keySet().containsAll(atBackup)),
        new Check("no call reached the same provider twice",
            atPrimary.size() == primary.size() && atBackup.size() == backup.size()),
        new Check("the backup never received the app's key (only its own)",
            backup.stream().allMatch(r -> ("Bearer " + DemoConfig.BACKUP_KEY).equals(r.header("authorization")))),
        new Check("every call the backup answered was asked of it as " + DemoConfig.BACKUP_MODEL,
            backup.stream().allMatch(r -> DemoConfig.BACKUP_MODEL.equals(r.json().path("model").asText()))),
        new Check("every call the app counted as answered reports its usage",
            judged.stream().filter(j -> j.call().status() == 200).allMatch(j -> j.call().promptTokens() > 0)));
    return new Summary(clientRows, List.of(primaryRow, backupRow), List.copyOf(breakerEvents), List.copyOf(coreLog),
        checks,
        judged, reservations, Set.copyOf(instrumented));
  }

  /** This summary with {@code more} checks after its own. */
  Summary withChecks(List<Check> more) {
    List<Check> all = new ArrayList<>(checks);
    all.addAll(more);
    return new Summary(clients, providers, breakerEvents, coreLog, List.copyOf(all), calls, reservations,
        instrumented);
  }

  boolean allChecksPassed() {
    return checks.stream().allMatch(Check::passed);
  }

  int callCount() {
    return calls.size();
  }

  int count(Fate fate) {
    return (int) calls.stream().filter(j -> j.fate() == fate).count();
  }

  private static ProviderRow provider(String name, List<RecordedRequest> received, List<Judged> judged,
      Predicate<Fate> answeredHere, Set<String> instrumented, long startEpochMillis,
      List<TimedTokens> reservations) {
    LlmProtocol protocol = LlmProtocol.of(ProviderApi.OPENAI);
    long reserved = 0;
    for (RecordedRequest request : received) {
      if (Instrumented.covers(instrumented, clientOf(request.header("x-request-id")))) {
        long tokens = protocol.readRequest(request.path(), request.body(), DemoConfig.DEFAULT_MAX_OUTPUT)
            .estimate().totalTokens();
        reserved += tokens;
        reservations.add(new TimedTokens(request.arrivedAt().toEpochMilli() - startEpochMillis, tokens));
      }
    }
    int answered = 0;
    long settled = 0;
    long unmetered = 0;
    long spent = 0;
    for (Judged j : judged) {
      if (answeredHere.test(j.fate())) {
        answered++;
        spent += j.call().costMicroUsd();
        if (Instrumented.covers(instrumented, j.call().client())) {
          settled += j.call().usedTokens();
        } else {
          unmetered += j.call().usedTokens();
        }
      }
    }
    return new ProviderRow(name, received.size(), answered, reserved, settled, unmetered, spent);
  }

  static String clientOf(String callId) {
    if (callId == null) {
      return "";
    }
    int dash = callId.indexOf('-');
    return dash < 0 ? callId : callId.substring(0, dash);
  }

  private static Set<String> ids(List<RecordedRequest> requests) {
    Set<String> ids = new HashSet<>();
    for (RecordedRequest request : requests) {
      ids.add(request.header("x-request-id"));
    }
    return ids;
  }

  private static final class ClientRowBuilder {
    private final String client;
    private final boolean stream;
    private final boolean gated;
    private final Map<Fate, Integer> fates = new EnumMap<>(Fate.class);
    private int calls;

    ClientRowBuilder(String client, boolean stream, boolean gated) {
      this.client = client;
      this.stream = stream;
      this.gated = gated;
    }

    void add(Fate fate) {
      calls++;
      fates.merge(fate, 1, Integer::sum);
    }

    ClientRow build() {
      return new ClientRow(client, stream, gated, calls, Map.copyOf(fates));
    }
  }
}
