package io.tollgate.config;

/**
 * The protocol a provider speaks ({@code tollgate.providers.<name>.api}): how to read its requests,
 * usage and errors, and how it takes an API key.
 */
public enum ProviderApi {
  /** OpenAI and OpenAI-compatible servers: {@code Authorization: Bearer}. */
  OPENAI,
  /** Azure OpenAI: deployments in the path, {@code api-key} header. */
  AZURE_OPENAI,
  /** Anthropic Messages API: {@code x-api-key} header. */
  ANTHROPIC
}
