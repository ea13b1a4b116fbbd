/**
 * A mock LLM provider server for tests: {@link io.tollgate.testkit.llm.MockLlmServer} speaks the
 * OpenAI, Azure OpenAI and Anthropic HTTP APIs (JSON and SSE) on a real loopback port, plays
 * scripted {@link io.tollgate.testkit.llm.Fault}s through its
 * {@link io.tollgate.testkit.llm.FaultScript}, and records every request as a
 * {@link io.tollgate.testkit.llm.RecordedRequest}.
 *
 * <pre>{@code
 * try (MockLlmServer openAi = MockLlmServer.start()) {
 *     openAi.requireApiKey("sk-test").usage(12, 5);
 *     openAi.script().next(1, Fault.rateLimited(Duration.ofSeconds(2)));
 *     // ... point the client under test at openAi.baseUrl() ...
 *     RecordedRequest first = openAi.takeRequest(Duration.ofSeconds(5));
 *     assertThat(first.header("authorization")).isEqualTo("Bearer sk-test");
 * }
 * }</pre>
 *
 * <p>Only the public types of this package are API; everything package-private may change.
 */
package io.tollgate.testkit.llm;
