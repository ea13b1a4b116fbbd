/**
 * Benchmarks of Tollgate, run outside the test suite: {@code mvn -B -ntp -Pbench package -DskipTests},
 * then {@code java -jar bench/target/benchmarks.jar} for the JMH benchmarks, or {@code java -cp
 * bench/target/benchmarks.jar io.tollgate.bench.limiter.LimiterBench} for the limiter's, {@code
 * io.tollgate.bench.agent.AgentBench} for the agent's. Figures and exact commands:
 * docs/benchmarks.md.
 */
package io.tollgate.bench;
