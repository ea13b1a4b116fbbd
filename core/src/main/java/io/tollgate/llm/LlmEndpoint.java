package io.tollgate.llm;

/** Which operation a request calls, told by its path. */
public enum LlmEndpoint {
  /** OpenAI / Azure {@code .../chat/completions}. */
  CHAT_COMPLETIONS,
  /** OpenAI / Azure Responses API {@code .../responses}. */
  RESPONSES,
  /** The legacy {@code .../completions} with a {@code prompt}. */
  COMPLETIONS,
  /** {@code .../embeddings}: input tokens only, no output. */
  EMBEDDINGS,
  /** Anthropic {@code .../messages}. */
  MESSAGES,
  /** Anthropic {@code .../messages/count_tokens}: free of tokens, counts only as a request. */
  COUNT_TOKENS,
  /** Anything else (models, files, batches, ...): counted as a request, never as tokens. */
  OTHER
}
