/**
 * The agent benchmark: what {@code -javaagent:tollgate-agent.jar} adds to an OkHttp app per call
 * (in-memory limiter, Redis limiter, a host no provider lives on) and at start-up, each run in a
 * child JVM against a loopback server, side by side with the same app without the agent:
 *
 * <pre>
 * mvn -B -ntp -q -Pbench -Dmaven.test.skip=true package
 * java -cp bench/target/benchmarks.jar io.tollgate.bench.agent.AgentBench
 * </pre>
 *
 * <p>Figures, method and reading: docs/benchmarks.md, sections "Agent per call"
 * and "Agent start-up".
 */
package io.tollgate.bench.agent;
