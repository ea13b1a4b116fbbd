package io.tollgate.router;

import io.tollgate.config.ProviderConfig;
import io.tollgate.router.internal.ApiFamilies;
import io.tollgate.router.internal.DefaultRequestRewriter;
import java.util.Set;

/**
 * Readies a request addressed to one provider for another: its URL, credential and model. What
 * changes per pair of APIs is in docs/routing.md.
 *
 * <ul>
 *   <li>Scheme, host, port and base path become the target's; the rest of the path is kept (Azure
 *       deployments aside), and of the query only {@link CrossOriginHeaders#SAFE_QUERY_PARAMETERS}.</li>
 *   <li>Only the headers {@link CrossOriginHeaders} lets leave are kept (an allow-list: no
 *       credential of the original, whatever its name), and the target's own {@code api-key} is set
 *       in its style; a target without one is refused, so one provider's key never reaches another
 *       host.</li>
 *   <li>{@code model} is mapped through the target's {@code model-map} by replacing only that value
 *       in the JSON body: every other byte is sent as written. A body that is not a JSON object is
 *       sent unchanged.</li>
 *   <li>A request to the provider it was addressed to passes unchanged, the app's credential with it.</li>
 * </ul>
 */
public interface RequestRewriter {

  /** The {@code api-version} given to an Azure request that has none (the GA version of 2024-10-21). */
  String DEFAULT_AZURE_API_VERSION = "2024-10-21";

  /** The {@code anthropic-version} given to an Anthropic request that has none. */
  String DEFAULT_ANTHROPIC_VERSION = "2023-06-01";

  /**
   * The headers a rewritten request carries its target's key in, lower case, one per API style:
   * {@code authorization} (OpenAI, {@code Bearer}), {@code api-key} (Azure OpenAI),
   * {@code x-api-key} (Anthropic). The original's never go with a rewritten request (see
   * {@link CrossOriginHeaders}).
   */
  Set<String> CREDENTIAL_HEADERS = Set.of("authorization", "api-key", "x-api-key");

  /** A rewriter with the allow-list alone ({@link CrossOriginHeaders#ofDefaults()}). */
  static RequestRewriter of() {
    return DefaultRequestRewriter.INSTANCE;
  }

  /** A rewriter that keeps only what {@code leaving} lets go to another origin (with the configured credential headers). */
  static RequestRewriter of(CrossOriginHeaders leaving) {
    return DefaultRequestRewriter.of(leaving);
  }

  /**
   * True when a request to {@code from} can be sent to {@code to}: both speak the OpenAI body format
   * ({@code openai}, {@code azure-openai}) or both are {@code anthropic}. Requests are never
   * translated between formats. For configuration checks.
   */
  static boolean compatible(ProviderConfig from, ProviderConfig to) {
    return ApiFamilies.compatible(from, to);
  }

  /**
   * {@code request}, addressed to {@code from}, readied for {@code to}; unchanged when they are the
   * same provider.
   *
   * @throws RewriteException when {@code to} cannot take it: not {@link #compatible}, no API key,
   *     no equivalent of the request in its API, or a request that is not under {@code from}'s base URL
   */
  RewrittenRequest rewrite(OutboundRequest request, ProviderConfig from, ProviderConfig to);
}
