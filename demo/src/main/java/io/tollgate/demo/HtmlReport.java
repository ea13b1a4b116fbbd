package io.tollgate.demo;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The run as one self-contained HTML page: the summary tables and two inline SVG charts over time
 * (decisions per second; tokens reserved and used per second), with the primary's phases and the
 * breaker transitions marked. No script, no stylesheet or font from elsewhere.
 */
final class HtmlReport {

  private static final int WIDTH = 960;
  private static final int HEIGHT = 220;
  private static final int LEFT = 50;
  private static final int BOTTOM = 30;
  private static final int TOP = 20;

  /** One colour of a chart: the fates it counts (none for a line of the tokens chart). */
  private record Series(String label, String color, Set<Fate> fates) {}

  /** Bars of the decisions chart, bottom to top. */
  private static final List<Series> DECISIONS = List.of(
      new Series("primary ok", "#2e7d32", EnumSet.of(Fate.PRIMARY)),
      new Series("backup (fallback)", "#1565c0", EnumSet.of(Fate.FALLBACK_AFTER_ERROR, Fate.FALLBACK_SKIPPED_PRIMARY)),
      new Series("Tollgate 429/503", "#ef6c00", EnumSet.of(Fate.LIMITED, Fate.NO_PROVIDER)),
      new Series("provider error / no response", "#c62828", EnumSet.of(Fate.PROVIDER_ERROR, Fate.NO_RESPONSE)));
  private static final Series RESERVED = new Series("reserved (estimate)", "#757575", Set.of());
  private static final Series USED = new Series("used (settled)", "#6a1b9a", Set.of());

  private HtmlReport() {}

  static String render(Summary summary, Duration run, String limiter, Optional<JsonNode> status) {
    int seconds = (int) Math.max(run.toSeconds(),
        summary.calls().stream().mapToLong(j -> j.call().atMillis() / 1000 + 1).max().orElse(1));
    StringBuilder html = new StringBuilder(32_000);
    html.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
        .append("<title>Tollgate demo report</title><style>")
        .append("body{font-family:system-ui,sans-serif;margin:2em;color:#222}")
        .append("table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:4px 8px}")
        .append("td.n{text-align:right}th{background:#f3f3f3}.ok{color:#2e7d32}.bad{color:#c62828}")
        .append("</style></head><body>\n<h1>Tollgate demo</h1>\n<p>")
        .append(summary.callCount()).append(" calls in ").append(run.toSeconds())
        .append(" s by an unmodified app under the agent; limiter: ").append(escape(limiter))
        .append("; instrumented clients: ").append(escape(summary.instrumented().toString())).append(".</p>\n");
    html.append("<h2>Decisions per second</h2>\n").append(decisionsChart(summary, run, seconds));
    html.append("<h2>Tokens per second (instrumented clients)</h2>\n").append(tokensChart(summary, run, seconds));
    html.append(tables(summary)).append(StatusSection.render(status)).append("</body></html>\n");
    return html.toString();
  }

  private static String decisionsChart(Summary summary, Duration run, int seconds) {
    int[][] counts = new int[DECISIONS.size()][seconds + 1];
    for (Summary.Judged judged : summary.calls()) {
      int second = (int) Math.min(seconds, Math.max(0, judged.call().atMillis() / 1000));
      for (int s = 0; s < DECISIONS.size(); s++) {
        if (DECISIONS.get(s).fates().contains(judged.fate())) {
          counts[s][second]++;
        }
      }
    }
    int max = 1;
    for (int second = 0; second <= seconds; second++) {
      int total = 0;
      for (int[] series : counts) {
        total += series[second];
      }
      max = Math.max(max, total);
    }
    StringBuilder svg = frame(summary, run, seconds, max, "calls");
    double barWidth = plotWidth() / (double) (seconds + 1);
    for (int second = 0; second <= seconds; second++) {
      double y = HEIGHT - BOTTOM;
      for (int s = 0; s < DECISIONS.size(); s++) {
        double h = counts[s][second] * (HEIGHT - BOTTOM - TOP) / (double) max;
        if (h > 0) {
          y -= h;
          svg.append(String.format(Locale.ROOT,
              "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"><title>%ds: %d %s</title></rect>",
              LEFT + second * barWidth, y, Math.max(1, barWidth - 1), h, DECISIONS.get(s).color(), second,
              counts[s][second], escape(DECISIONS.get(s).label())));
        }
      }
    }
    legend(svg, DECISIONS);
    return svg.append("</svg>\n").toString();
  }

  private static String tokensChart(Summary summary, Duration run, int seconds) {
    long[] reserved = new long[seconds + 1];
    long[] used = new long[seconds + 1];
    for (Summary.TimedTokens t : summary.reservations()) {
      reserved[(int) Math.min(seconds, Math.max(0, t.atMillis() / 1000))] += t.tokens();
    }
    for (Summary.Judged judged : summary.calls()) {
      if (Instrumented.covers(summary.instrumented(), judged.call().client())) {
        used[(int) Math.min(seconds, Math.max(0, judged.call().atMillis() / 1000))] += judged.call().usedTokens();
      }
    }
    long max = 1;
    for (int s = 0; s <= seconds; s++) {
      max = Math.max(max, Math.max(reserved[s], used[s]));
    }
    StringBuilder svg = frame(summary, run, seconds, max, "tokens");
    svg.append(polyline(reserved, max, seconds, RESERVED.color())).append(polyline(used, max, seconds, USED.color()));
    legend(svg, List.of(RESERVED, USED));
    return svg.append("</svg>\n").toString();
  }

  /** The SVG element, the primary's phases as bands, axes, and the breaker transitions. */
  private static StringBuilder frame(Summary summary, Duration run, int seconds, long max, String unit) {
    StringBuilder svg = new StringBuilder();
    svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
        + "viewBox=\"0 0 %d %d\" font-size=\"11\" font-family=\"sans-serif\">", WIDTH, HEIGHT + 40, WIDTH, HEIGHT + 40));
    String[] shades = {"#ffffff", "#fff8e1", "#ffebee", "#f1f8e9"};
    for (Phase phase : Phase.values()) {
      double from = x(phase.start(run).toMillis() / 1000.0, seconds);
      int next = phase.ordinal() + 1;
      double to = next < Phase.values().length ? x(Phase.values()[next].start(run).toMillis() / 1000.0, seconds)
          : x(run.toMillis() / 1000.0, seconds);
      svg.append(String.format(Locale.ROOT,
          "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"/><text x=\"%.1f\" y=\"%d\" fill=\"#777\">%s</text>",
          from, TOP, Math.max(0, to - from), HEIGHT - BOTTOM - TOP, shades[phase.ordinal()], from + 3, TOP - 5,
          escape(phase.name().toLowerCase(Locale.ROOT).replace('_', ' '))));
    }
    svg.append(String.format(Locale.ROOT,
        "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\"/><line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\"/>",
        LEFT, HEIGHT - BOTTOM, WIDTH - 10, HEIGHT - BOTTOM, LEFT, TOP, LEFT, HEIGHT - BOTTOM));
    svg.append(String.format(Locale.ROOT, "<text x=\"5\" y=\"%d\">%d</text><text x=\"5\" y=\"%d\">%s</text>",
        TOP + 10, max, TOP + 24, unit));
    for (int s = 0; s <= seconds; s += 5) {
      svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%ds</text>",
          x(s, seconds), HEIGHT - BOTTOM + 14, s));
    }
    for (BreakerEvent event : summary.breakerEvents()) {
      double ex = x(event.atMillis() / 1000.0, seconds);
      svg.append(String.format(Locale.ROOT,
          "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#000\" stroke-dasharray=\"4 3\">"
              + "<title>%s %s</title></line><text x=\"%.1f\" y=\"%d\" font-size=\"9\">%s</text>",
          ex, TOP, ex, HEIGHT - BOTTOM, escape(event.provider()), escape(event.label()), ex + 2, TOP + 10,
          escape(event.to())));
    }
    return svg;
  }

  private static String polyline(long[] values, long max, int seconds, String color) {
    StringBuilder points = new StringBuilder();
    for (int s = 0; s < values.length; s++) {
      points.append(String.format(Locale.ROOT, "%.1f,%.1f ", x(s + 0.5, seconds),
          HEIGHT - BOTTOM - values[s] * (HEIGHT - BOTTOM - TOP) / (double) max));
    }
    return "<polyline fill=\"none\" stroke=\"" + color + "\" stroke-width=\"2\" points=\"" + points + "\"/>";
  }

  private static void legend(StringBuilder svg, List<Series> series) {
    int x = LEFT;
    for (Series entry : series) {
      svg.append(String.format(Locale.ROOT,
          "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/><text x=\"%d\" y=\"%d\">%s</text>",
          x, HEIGHT + 10, entry.color(), x + 14, HEIGHT + 19, escape(entry.label())));
      x += 30 + 7 * entry.label().length();
    }
  }

  private static String tables(Summary summary) {
    StringBuilder html = new StringBuilder("<h2>Calls by client</h2>\n<table><tr><th>client</th><th>Tollgate</th><th>calls</th>");
    for (Fate fate : Fate.values()) {
      html.append("<th>").append(escape(fate.label)).append("</th>");
    }
    html.append("</tr>\n");
    for (Summary.ClientRow row : summary.clients()) {
      html.append("<tr><td>").append(row.client()).append(row.stream() ? " stream" : " plain").append("</td><td>")
          .append(row.gated() ? "instrumented" : "not yet").append("</td>").append(cell(row.calls()));
      for (Fate fate : Fate.values()) {
        html.append(cell(row.count(fate)));
      }
      html.append("</tr>\n");
    }
    html.append("</table>\n<h2>Providers</h2>\n<table><tr><th>provider</th><th>requests</th><th>answered 200</th>"
        + "<th>refused/failed</th><th>tokens reserved</th><th>tokens used (settled)</th><th>tokens used, not metered</th><th>spend (USD)</th></tr>\n");
    for (Summary.ProviderRow row : summary.providers()) {
      html.append("<tr><td>").append(escape(row.name())).append("</td>").append(cell(row.requests()))
          .append(cell(row.answered())).append(cell(row.refused())).append(cell(row.reservedTokens()))
          .append(cell(row.settledTokens())).append(cell(row.unmeteredTokens()))
          .append("<td>").append(SummaryTable.usd(row.spentMicroUsd())).append("</td></tr>\n");
    }
    html.append("</table>\n<h2>Breaker transitions</h2>\n<ul>");
    for (BreakerEvent event : summary.breakerEvents()) {
      html.append(String.format(Locale.ROOT, "<li>%.1f s: %s %s</li>", event.atMillis() / 1000.0,
          escape(event.provider()), escape(event.label())));
    }
    if (summary.breakerEvents().isEmpty()) {
      html.append("<li>none</li>");
    }
    html.append("</ul>\n");
    if (!summary.coreLog().isEmpty()) {
      html.append("<h2>Tollgate's other log records</h2>\n<ul>");
      summary.coreLog().forEach(line -> html.append("<li>").append(escape(line)).append("</li>"));
      html.append("</ul>\n");
    }
    html.append("<h2>Checks</h2>\n<ul>");
    for (Summary.Check check : summary.checks()) {
      html.append("<li class=\"").append(check.passed() ? "ok\">ok: " : "bad\">FAILED: ")
          .append(escape(check.description())).append("</li>");
    }
    return html.append("</ul>\n").toString();
  }

  private static String cell(long value) {
    return "<td class=\"n\">" + value + "</td>";
  }

  private static double plotWidth() {
    return WIDTH - 10 - LEFT;
  }

  private static double x(double second, int seconds) {
    return LEFT + second * plotWidth() / (seconds + 1);
  }

  static String escape(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
  }
}
