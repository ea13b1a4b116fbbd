package io.tollgate.router.internal;

import io.tollgate.config.ProviderConfig;
import io.tollgate.config.Secret;
import io.tollgate.router.CrossOriginHeaders;
import io.tollgate.router.OutboundRequest;
import io.tollgate.router.RequestRewriter;
import io.tollgate.router.RewriteException;
import io.tollgate.router.RewrittenRequest;
import java.net.URI;
import java.util.Optional;
import java.util.List;

/** {@link RequestRewriter}: stateless but for the headers it lets leave, one instance per configuration. */
public final class DefaultRequestRewriter implements RequestRewriter {

  public static final RequestRewriter INSTANCE = new DefaultRequestRewriter(CrossOriginHeaders.ofDefaults());

  /**
   * Operations that Azure serves per deployment and OpenAI under {@code /v1} with the same body:
   * the only ones moved between the two. Anything else (files, batches, the Responses API) has no
   * one-to-one counterpart, so it is refused rather than guessed.
   */
  private static final List<String> SHARED_OPERATIONS = List.of("/chat/completions", "/completions", "/embeddings");

  private final CrossOriginHeaders leaving;

  private DefaultRequestRewriter(CrossOriginHeaders leaving) {
    this.leaving = leaving;
  }

  /** A rewriter that lets only what {@code leaving} allows go with a request to another provider. */
  public static RequestRewriter of(CrossOriginHeaders leaving) {
    return leaving.equals(CrossOriginHeaders.ofDefaults()) ? INSTANCE : new DefaultRequestRewriter(leaving);
  }

  @Override
  public RewrittenRequest rewrite(OutboundRequest request, ProviderConfig from, ProviderConfig to) {
    if (from.name().equals(to.name())) {
      return new RewrittenRequest(from.name(), to.name(), request, Optional.empty());
    }
    if (!ApiFamilies.compatible(from, to)) {
      throw refused(from, to, ApiFamilies.name(from) + " requests are not translated to " + ApiFamilies.name(to)
          + "; fall back only to a provider of the same API family");
    }
    // Checked before anything else is done with the request: without its own key the target must
    // not get the call at all, least of all with the original credential.
    Secret key = to.apiKey().orElseThrow(() -> refused(from, to,
        to.name() + " has no api-key; set tollgate.providers." + to.name() + ".api-key"));
    String path = ProviderUris.pathUnder(request.uri(), from.baseUrl()).orElseThrow(() -> refused(from, to,
        "the request's URL is not under " + from.name() + "'s base-url " + from.baseUrl()));
    ModelField body = ModelField.scan(request.body());
    Target target = ApiFamilies.isAzure(from)
        ? fromAzure(request, from, to, path, body)
        : toOpenAiFamilyOrSame(request, from, to, path, body);
    OutboundRequest rewritten = OutboundRequest.of(request.method(), target.uri,
        Credentials.forTarget(request.headers(), to, key, leaving), target.body);
    return new RewrittenRequest(from.name(), to.name(), rewritten, target.model);
  }

  /** From OpenAI or Anthropic: the model is the body's. */
  private static Target toOpenAiFamilyOrSame(
      OutboundRequest request, ProviderConfig from, ProviderConfig to, String path, ModelField body) {
    Optional<String> model = body.model().map(asked -> mapped(to, asked));
    byte[] newBody = model.map(body::withModel).orElseGet(request::body);
    String query = safeQuery(request);
    if (!ApiFamilies.isAzure(to)) {
      return new Target(ProviderUris.resolve(to.baseUrl(), path, query), newBody, model);
    }
    String operation = ProviderUris.withoutV1(path);
    requireShared(from, to, operation);
    String deployment = model.orElseThrow(() -> refused(from, to,
        "the request names no model, so no Azure deployment can be chosen"));
    URI uri = ProviderUris.resolve(to.baseUrl(),
        "/openai/deployments/" + ProviderUris.encode(deployment) + operation,
        ProviderUris.withDefault(query, ProviderUris.API_VERSION, DEFAULT_AZURE_API_VERSION));
    return new Target(uri, newBody, model);
  }

  /** From Azure: the model is the deployment in the path, when there is one. */
  private static Target fromAzure(
      OutboundRequest request, ProviderConfig from, ProviderConfig to, String path, ModelField body) {
    String query = safeQuery(request);
    Optional<ProviderUris.Deployment> deployment = ProviderUris.azureDeployment(path);
    if (ApiFamilies.isAzure(to)) {
      if (deployment.isEmpty()) {
        // Not a deployment's operation (e.g. the v1 API with the model in the body): only the body's model moves.
        Optional<String> model = body.model().map(asked -> mapped(to, asked));
        byte[] newBody = model.map(body::withModel).orElseGet(request::body);
        return new Target(ProviderUris.resolve(to.baseUrl(), path, query), newBody, model);
      }
      String name = deployment.get().name();
      String target = mapped(to, name);
      String segment = target.equals(name) ? name : ProviderUris.encode(target);
      URI uri = ProviderUris.resolve(to.baseUrl(),
          "/openai/deployments/" + segment + deployment.get().operation(),
          ProviderUris.withDefault(query, ProviderUris.API_VERSION, DEFAULT_AZURE_API_VERSION));
      byte[] newBody = body.model().isPresent() ? body.withModel(mapped(to, body.model().get())) : request.body();
      return new Target(uri, newBody, Optional.of(target));
    }
    if (deployment.isEmpty()) {
      throw refused(from, to, "only Azure deployment operations " + SHARED_OPERATIONS + " have an OpenAI equivalent");
    }
    requireShared(from, to, deployment.get().operation());
    // Azure answers as the deployment whatever the body says; OpenAI reads the body's model.
    String model = mapped(to, deployment.get().name());
    URI uri = ProviderUris.resolve(to.baseUrl(), "/v1" + deployment.get().operation(),
        ProviderUris.without(query, ProviderUris.API_VERSION));
    return new Target(uri, body.withModelSetTo(model), Optional.of(model));
  }

  /** The query's parameters that may go to another provider: a key in the query stays behind. */
  private static String safeQuery(OutboundRequest request) {
    return ProviderUris.keepOnly(request.uri().getRawQuery(), CrossOriginHeaders.SAFE_QUERY_PARAMETERS);
  }

  private static void requireShared(ProviderConfig from, ProviderConfig to, String operation) {
    if (!SHARED_OPERATIONS.contains(operation)) {
      throw refused(from, to, "only " + SHARED_OPERATIONS + " move between openai and azure-openai, not "
          + (operation.isEmpty() ? "/" : operation));
    }
  }

  private static String mapped(ProviderConfig to, String model) {
    return to.modelMap().getOrDefault(model, model);
  }

  private static RewriteException refused(ProviderConfig from, ProviderConfig to, String problem) {
    return new RewriteException(from.name(), to.name(), problem);
  }

  private record Target(URI uri, byte[] body, Optional<String> model) {}
}
