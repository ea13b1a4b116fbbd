package io.tollgate.llm;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What Tollgate read from a request before sending it.
 *
 * @param api the provider's API
 * @param endpoint the operation, from the path
 * @param model the body's {@code model}, when it names one
 * @param deployment Azure's deployment, from {@code /openai/deployments/{deployment}/...}
 * @param maxOutputTokens the output cap the body names ({@code max_completion_tokens}, {@code
 *     max_tokens} or {@code max_output_tokens}), before multiplying by {@code n}
 * @param stream true when the body asks for an SSE stream
 * @param includeUsage true when an OpenAI stream asks for a final usage chunk ({@code
 *     stream_options.include_usage}); Responses and Anthropic streams always carry usage
 * @param estimate the tokens to reserve
 */
public record LlmRequest(
    ProviderApi api,
    LlmEndpoint endpoint,
    Optional<String> model,
    Optional<String> deployment,
    OptionalLong maxOutputTokens,
    boolean stream,
    boolean includeUsage,
    TokenEstimate estimate) {

  public LlmRequest {
    Objects.requireNonNull(api, "api");
    Objects.requireNonNull(endpoint, "endpoint");
    Objects.requireNonNull(model, "model");
    Objects.requireNonNull(deployment, "deployment");
    Objects.requireNonNull(maxOutputTokens, "maxOutputTokens");
    Objects.requireNonNull(estimate, "estimate");
  }

  /**
   * The name that decides the tokenizer and the model map: Azure's deployment (Azure ignores the
   * body's model), else the body's model.
   */
  public Optional<String> modelOrDeployment() {
    return deployment.isPresent() ? deployment : model;
  }

  /**
   * This request with its prompt estimated from the size of a body that is not tokenized (one the
   * client streams as the app produces it, held in part or not at all): {@link
   * TokenEstimate#fromBodySize}, the output estimate kept. An endpoint that consumes no tokens stays
   * at zero.
   */
  public LlmRequest withPromptBySize(long bodyBytes) {
    if (estimate.basis() == EstimateBasis.NONE) {
      return this;
    }
    return new LlmRequest(api, endpoint, model, deployment, maxOutputTokens, stream, includeUsage,
        TokenEstimate.fromBodySize(bodyBytes, estimate.outputTokens()));
  }

  /** True when the streamed response will report its usage without being asked. */
  public boolean streamReportsUsage() {
    return stream && (includeUsage || endpoint == LlmEndpoint.RESPONSES || endpoint == LlmEndpoint.MESSAGES);
  }
}
