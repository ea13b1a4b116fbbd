package io.tollgate.demo;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/** What the status page must have shown of the run: it answered, and the primary's breaker opening. */
final class StatusChecks {

  private StatusChecks() {}

  static List<Summary.Check> of(StatusWatch status, List<BreakerEvent> breakerEvents) {
    List<Summary.Check> checks = new ArrayList<>();
    checks.add(new Summary.Check("the status page answered while the app ran (" + status.answers()
        + " reads)", status.answers() > 0));
    boolean opened = breakerEvents.stream()
        .anyMatch(e -> e.provider().equals(DemoConfig.PRIMARY) && e.to().equalsIgnoreCase("open"));
    if (opened) {
      checks.add(new Summary.Check("the status page showed " + DemoConfig.PRIMARY
          + "'s breaker open, as the agent logged it", status.primaryStates().contains("open")
              || status.last().map(StatusChecks::listsPrimaryOpening).orElse(false)));
    }
    return checks;
  }

  private static boolean listsPrimaryOpening(JsonNode report) {
    for (JsonNode provider : report.path("providers")) {
      if (provider.path("name").asText().equals(DemoConfig.PRIMARY)) {
        for (JsonNode transition : provider.path("transitions")) {
          if (transition.path("to").asText().equals("open")) {
            return true;
          }
        }
      }
    }
    return false;
  }
}
