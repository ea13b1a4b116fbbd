/**
 * What Tollgate understands of LLM traffic: requests (model, output cap, stream flag, a token
 * estimate), usage (from JSON bodies and SSE streams, tapped as the app reads them), provider
 * signals (retry-after, rate-limit headers, error classes) and synthetic responses shaped like
 * each provider's own. One {@link io.tollgate.llm.LlmProtocol} per {@link
 * io.tollgate.llm.ProviderApi}; the details are in docs/llm-protocol.md.
 */
package io.tollgate.llm;
