/**
 * The limiter benchmark: Tollgate's Redis script against a sorted-set sliding log, Bucket4j's Jedis
 * backend and {@code redis-benchmark}'s raw EVALSHA ceiling, on one throw-away local redis-server.
 * One command runs it all and prints markdown tables:
 *
 * <pre>
 * mvn -B -ntp -q -Pbench -Dmaven.test.skip=true package
 * java -cp bench/target/benchmarks.jar io.tollgate.bench.limiter.LimiterBench
 * </pre>
 *
 * <p>Figures, method and the reading of the results: docs/benchmarks.md, section "Limiter".
 */
package io.tollgate.bench.limiter;
