package io.tollgate.demo;

/** The summary as the console shows it at the end of a run. */
final class SummaryTable {

  private static final int MAX_LOG_LINES = 10;

  private SummaryTable() {}

  static String render(Summary summary) {
    StringBuilder out = new StringBuilder();
    out.append("\nCalls, by the app's client (as the app saw them; routes from the providers' records)\n");
    TextTable calls = new TextTable("client", "Tollgate", "calls", Fate.PRIMARY.label,
        Fate.FALLBACK_AFTER_ERROR.label, Fate.FALLBACK_SKIPPED_PRIMARY.label, Fate.LIMITED.label,
        Fate.NO_PROVIDER.label, Fate.PROVIDER_ERROR.label, Fate.NO_RESPONSE.label);
    for (Summary.ClientRow row : summary.clients()) {
      calls.row(row.client() + (row.stream() ? " stream" : " plain"), row.gated() ? "instrumented" : "not yet",
          row.calls(), row.count(Fate.PRIMARY), row.count(Fate.FALLBACK_AFTER_ERROR),
          row.count(Fate.FALLBACK_SKIPPED_PRIMARY), row.count(Fate.LIMITED), row.count(Fate.NO_PROVIDER),
          row.count(Fate.PROVIDER_ERROR), row.count(Fate.NO_RESPONSE));
    }
    calls.row("all", "", summary.callCount(), summary.count(Fate.PRIMARY), summary.count(Fate.FALLBACK_AFTER_ERROR),
        summary.count(Fate.FALLBACK_SKIPPED_PRIMARY), summary.count(Fate.LIMITED), summary.count(Fate.NO_PROVIDER),
        summary.count(Fate.PROVIDER_ERROR), summary.count(Fate.NO_RESPONSE));
    out.append(calls.render());

    out.append("\nProviders (requests as the mock providers recorded them)\n");
    TextTable providers = new TextTable("provider", "requests", "answered 200", "refused/failed",
        "tokens reserved", "tokens used (settled)", "ratio", "tokens used, not metered", "spend (USD)");
    for (Summary.ProviderRow row : summary.providers()) {
      providers.row(row.name(), row.requests(), row.answered(), row.refused(), row.reservedTokens(),
          row.settledTokens(), ratio(row.reservedTokens(), row.settledTokens()), row.unmeteredTokens(),
          usd(row.spentMicroUsd()));
    }
    out.append(providers.render());
    out.append("  Reserved: Tollgate's estimate (prompt + max_tokens) for each attempt it let through; a refused\n"
        + "  attempt's reservation is released, an answered one settled with the usage the provider reported.\n"
        + "  Not metered: calls through clients the agent does not instrument.\n"
        + "  Spend: every answered call's usage at the bundled list prices (docs/prices.md), as\n"
        + "  tollgate.cost counts it.\n");

    out.append("\nCircuit breaker transitions (from the agent's log; entering HALF_OPEN is not logged)\n");
    if (summary.breakerEvents().isEmpty()) {
      out.append("  none\n");
    }
    for (BreakerEvent event : summary.breakerEvents()) {
      out.append(String.format("  %6.1fs  %s  %s%n", event.atMillis() / 1000.0, event.provider(), event.label()));
    }

    if (!summary.coreLog().isEmpty()) {
      out.append("\nTollgate's other log records (Redis unreachable and back, ...)\n");
      summary.coreLog().stream().limit(MAX_LOG_LINES).forEach(line -> out.append("  ").append(line).append('\n'));
      if (summary.coreLog().size() > MAX_LOG_LINES) {
        out.append("  ... ").append(summary.coreLog().size() - MAX_LOG_LINES).append(" more\n");
      }
    }

    out.append("\nChecks\n");
    for (Summary.Check check : summary.checks()) {
      out.append("  ").append(check.passed() ? "ok    " : "FAILED").append("  ").append(check.description()).append('\n');
    }
    return out.toString();
  }

  private static String ratio(long reserved, long used) {
    return used == 0 ? "-" : String.format("%.1fx", (double) reserved / used);
  }

  /** Micro-dollars as dollars with six decimals: {@code 0.012345}. */
  static String usd(long microUsd) {
    return java.math.BigDecimal.valueOf(microUsd, 6).toPlainString();
  }
}
