package io.tollgate.demo;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * How a run ended.
 *
 * @param summary what happened; empty when the app never got going
 * @param problem why the run failed; empty when it did not
 * @param agentLines the agent's {@code [tollgate]} lines
 * @param report the HTML report, when written
 */
record DemoResult(Optional<Summary> summary, Optional<String> problem, List<String> agentLines, Optional<Path> report) {

  boolean succeeded() {
    return problem.isEmpty() && summary.map(Summary::allChecksPassed).orElse(false);
  }
}
