package io.tollgate.telemetry;

import static io.opentelemetry.api.common.AttributeKey.booleanKey;
import static io.opentelemetry.api.common.AttributeKey.doubleKey;
import static io.opentelemetry.api.common.AttributeKey.longKey;
import static io.opentelemetry.api.common.AttributeKey.stringKey;

import io.opentelemetry.api.common.AttributeKey;

/**
 * The attribute keys of Tollgate's spans, events and metrics (docs/telemetry.md): the
 * {@code gen_ai.*} semantic conventions where they fit, {@code tollgate.*} for the rest. None of
 * them ever holds an API key, a raw tenant id or prompt text.
 */
public final class TollgateAttributes {

  /** The GenAI provider as the semantic conventions name it ({@code openai}, {@code anthropic}, ...). */
  public static final AttributeKey<String> GEN_AI_PROVIDER_NAME = stringKey("gen_ai.provider.name");
  /** The same, under its earlier name, for back ends that still read it. */
  public static final AttributeKey<String> GEN_AI_SYSTEM = stringKey("gen_ai.system");
  public static final AttributeKey<String> GEN_AI_REQUEST_MODEL = stringKey("gen_ai.request.model");
  public static final AttributeKey<String> GEN_AI_RESPONSE_MODEL = stringKey("gen_ai.response.model");
  public static final AttributeKey<Long> GEN_AI_USAGE_INPUT_TOKENS = longKey("gen_ai.usage.input_tokens");
  public static final AttributeKey<Long> GEN_AI_USAGE_OUTPUT_TOKENS = longKey("gen_ai.usage.output_tokens");
  /** {@code input} or {@code output}, on the tokens-used counter. */
  public static final AttributeKey<String> GEN_AI_TOKEN_TYPE = stringKey("gen_ai.token.type");
  public static final AttributeKey<Long> HTTP_RESPONSE_STATUS_CODE = longKey("http.response.status_code");
  public static final AttributeKey<String> ERROR_TYPE = stringKey("error.type");

  /** What Tollgate did with the call or request; values in {@link Decisions}. */
  public static final AttributeKey<String> DECISION = stringKey("tollgate.decision");
  /** {@code outbound} (the gate) or {@code inbound} (the servlet filter), on the decisions counter. */
  public static final AttributeKey<String> DIRECTION = stringKey("tollgate.direction");
  /** The limit that denied: {@code <subject scope>:<dimension>-per-<window>}, e.g. {@code tenant:tokens-per-minute}. */
  public static final AttributeKey<String> LIMIT = stringKey("tollgate.limit");
  /** The tenant's SHA-256 digest, as in Redis keys (never the id itself). */
  public static final AttributeKey<String> TENANT_HASH = stringKey("tollgate.tenant.hash");
  public static final AttributeKey<Long> TOKENS_RESERVED = longKey("tollgate.tokens.reserved");
  public static final AttributeKey<Long> TOKENS_SETTLED = longKey("tollgate.tokens.settled");
  /** Spend reserved for the call before it was sent, in USD (the estimate priced). */
  public static final AttributeKey<Double> COST_RESERVED = doubleKey("tollgate.cost.reserved");
  /** What the call cost, priced from its usage, in USD. */
  public static final AttributeKey<Double> COST = doubleKey("tollgate.cost");
  /**
   * The price table's name for the model ({@code gpt-4o}) on {@code tollgate.cost}; the model's key
   * under the provider's {@code models} on {@code tollgate.budget.used}.
   */
  public static final AttributeKey<String> MODEL = stringKey("tollgate.model");
  /** {@code day} or {@code month}: the period of a spend budget, on {@code tollgate.budget.used}. */
  public static final AttributeKey<String> BUDGET_PERIOD = stringKey("tollgate.budget.period");
  /** The configured provider name (the call's span: the one that answered, else the one addressed). */
  public static final AttributeKey<String> PROVIDER = stringKey("tollgate.provider");
  public static final AttributeKey<String> FALLBACK_FROM = stringKey("tollgate.fallback.from");
  public static final AttributeKey<String> FALLBACK_TO = stringKey("tollgate.fallback.to");
  /** 1 for the first attempt; on the call's span, the number of attempts sent. */
  public static final AttributeKey<Long> ATTEMPT = longKey("tollgate.attempt");
  /** {@code closed}, {@code open} or {@code half_open}. */
  public static final AttributeKey<String> BREAKER_STATE = stringKey("tollgate.breaker.state");
  public static final AttributeKey<String> BREAKER_PREVIOUS_STATE = stringKey("tollgate.breaker.previous_state");
  /** Why a breaker changed state ({@code failures}, {@code probe_succeeded}, ... lower case). */
  public static final AttributeKey<String> BREAKER_REASON = stringKey("tollgate.breaker.reason");
  /** True when a limiter decision was made without Redis. */
  public static final AttributeKey<Boolean> DEGRADED = booleanKey("tollgate.degraded");
  /** Milliseconds waited for room ({@code on-limit: wait}), summed over the call. */
  public static final AttributeKey<Long> WAIT_MS = longKey("tollgate.wait.ms");
  /** Why a candidate provider was passed over: {@code cooling_down}, {@code breaker_open}, {@code limited}, {@code rewrite_failed}. */
  public static final AttributeKey<String> SKIP_REASON = stringKey("tollgate.skip.reason");
  /** {@code enforce} or {@code shadow}. */
  public static final AttributeKey<String> MODE = stringKey("tollgate.mode");

  /** The most characters a value read from a request or a response (a model name) keeps. */
  public static final int MAX_OUTSIDE_TEXT = 128;

  private TollgateAttributes() {}

  /**
   * {@code text}, read from a request or a response, as a span may carry it: cut to
   * {@link #MAX_OUTSIDE_TEXT} characters, the last one then an ellipsis, so that a client cannot
   * make every span as large as its request.
   */
  public static String fromOutside(String text) {
    if (text.length() <= MAX_OUTSIDE_TEXT) {
      return text;
    }
    int end = MAX_OUTSIDE_TEXT - 1;
    if (Character.isHighSurrogate(text.charAt(end - 1))) {
      end--; // never half a character
    }
    return text.substring(0, end) + "\u2026";
  }
}
