package io.tollgate.demo;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The report's account of the status page: what its last answer showed (providers, limits, the
 * fleet, the decisions it listed), as tables, so the report keeps what the live page showed.
 */
final class StatusSection {

  private StatusSection() {}

  static String render(Optional<JsonNode> last) {
    StringBuilder html = new StringBuilder("<h2>Status page at the end of the run</h2>\n");
    if (last.isEmpty()) {
      return html.append("<p class=\"bad\">The status page never answered.</p>\n").toString();
    }
    JsonNode report = last.get();
    html.append("<p>As the agent's status page last showed it (").append(HtmlReport.escape(
        report.path("generatedAt").asText())).append("): mode ").append(HtmlReport.escape(
        report.path("mode").asText())).append(", limiter ").append(HtmlReport.escape(
        report.path("limiter").asText())).append(".</p>\n<table><tr><th>provider</th><th>breaker</th>"
        + "<th>health</th><th>answered</th><th>429</th><th>5xx / failed</th><th>refused</th>"
        + "<th>latest breaker transitions</th></tr>\n");
    for (JsonNode provider : report.path("providers")) {
      StringBuilder transitions = new StringBuilder();
      for (JsonNode t : provider.path("transitions")) {
        transitions.append(transitions.length() == 0 ? "" : "; ").append(t.path("from").asText())
            .append(" → ").append(t.path("to").asText()).append(" (").append(t.path("reason").asText())
            .append(")");
      }
      html.append("<tr><td>").append(HtmlReport.escape(provider.path("name").asText())).append("</td><td>")
          .append(HtmlReport.escape(provider.path("breaker").asText())).append("</td><td class=\"n\">")
          .append(String.format(java.util.Locale.ROOT, "%.2f", provider.path("healthScore").asDouble()))
          .append("</td>").append(cell(provider, "answered")).append(cell(provider, "rateLimited"))
          .append(cell(provider, "failed")).append(cell(provider, "refused")).append("<td>")
          .append(HtmlReport.escape(transitions.toString())).append("</td></tr>\n");
    }
    html.append("</table>\n<table><tr><th>limits of</th><th>left</th></tr>\n");
    for (JsonNode set : report.path("limits")) {
      StringBuilder left = new StringBuilder();
      for (JsonNode bucket : set.path("outbound")) {
        left.append(left.length() == 0 ? "" : "; ").append(bucket.path("remaining").asText()).append(" of ")
            .append(bucket.path("capacity").asText()).append(' ').append(bucket.path("limit").asText());
      }
      html.append("<tr><td>").append(HtmlReport.escape(set.path("name").asText())).append("</td><td>")
          .append(HtmlReport.escape(left.toString())).append("</td></tr>\n");
    }
    html.append("</table>\n<table><tr><th>instance</th><th>front end</th><th>version</th></tr>\n");
    for (JsonNode instance : report.path("fleet")) {
      html.append("<tr><td>").append(HtmlReport.escape(instance.path("name").asText())).append("</td><td>")
          .append(HtmlReport.escape(instance.path("frontEnd").asText())).append("</td><td>")
          .append(HtmlReport.escape(instance.path("version").asText())).append("</td></tr>\n");
    }
    Map<String, Integer> decisions = new TreeMap<>();
    report.path("decisions").forEach(d -> decisions.merge(d.path("decision").asText(), 1, Integer::sum));
    html.append("</table>\n<p>Its latest decisions other than plain admissions: ")
        .append(decisions.isEmpty() ? "none" : HtmlReport.escape(decisions.toString())).append(".</p>\n");
    return html.toString();
  }

  private static String cell(JsonNode node, String field) {
    return "<td class=\"n\">" + node.path(field).asLong() + "</td>";
  }
}
