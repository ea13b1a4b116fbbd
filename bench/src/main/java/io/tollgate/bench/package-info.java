/**
 * Benchmarks of Tollgate, run outside the test suite: {@code mvn -B -ntp -Pbench package -DskipTests}
 * then {@code java -jar bench/target/benchmarks.jar}. Figures and exact commands: docs/benchmarks.md.
 */
package io.tollgate.bench;
