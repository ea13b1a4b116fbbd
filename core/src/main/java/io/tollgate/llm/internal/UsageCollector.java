package io.tollgate.llm.internal;

import static io.tollgate.llm.internal.Json.ARRAY;
import static io.tollgate.llm.internal.Json.at;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import io.tollgate.llm.TokenCounter;
import io.tollgate.llm.TokenEstimate;
import io.tollgate.llm.Usage;
import java.io.IOException;
import java.util.Arrays;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Reads usage and generated text out of response documents (a JSON body, or each SSE event's
 * data), token by token, whatever the provider: the shapes do not collide, so one reader serves
 * OpenAI chat and completions, the Responses API, embeddings and Anthropic messages, streamed or
 * not, and OpenAI-compatible servers and Anthropic's OpenAI-compatible endpoint too.
 *
 * <ul>
 *   <li>Usage: {@code usage} at the top (chat, completions, embeddings, Anthropic message and
 *       {@code message_delta}), {@code response.usage} (Responses events), and {@code
 *       message.usage} (Anthropic {@code message_start}: the input side only, its output count
 *       is not final). A later figure replaces an earlier one field by field, which is right for
 *       Anthropic's cumulative counts and for servers that repeat usage in every chunk.
 *   <li>Text, for an estimate when no usage comes: chat deltas and messages (content, refusal,
 *       reasoning, tool-call names and arguments), Responses {@code *.delta} events (not audio)
 *       and output items, Anthropic text, thinking and tool-input deltas and blocks.
 * </ul>
 *
 * A document that turns out malformed is rolled back: it counts for nothing.
 */
final class UsageCollector implements IncrementalJson.Handler {

  private static final int PROMPT = 0;
  private static final int COMPLETION = 1;
  private static final int INPUT = 2;
  private static final int OUTPUT = 3;
  private static final int CACHE_CREATION = 4;
  private static final int CACHE_READ = 5;
  private static final int CACHED = 6;
  private static final int FIELDS = 7;

  private static final Set<String> RESPONSE_CONTAINERS = Set.of("choices", "output", "content", "data");
  private static final Set<String> ANTHROPIC_EVENTS = Set.of(
      "message_start", "message_delta", "message_stop", "content_block_start", "content_block_delta",
      "content_block_stop");
  private static final Set<String> TEXT_FIELDS = Set.of(
      "content", "refusal", "reasoning_content", "reasoning", "arguments", "name", "text",
      "partial_json", "thinking");

  private final long fallbackInput;
  private final String requestModel;
  private final Function<String, TokenCounter> tokenizerFor;
  private final ContentSample sample = new ContentSample();

  // what the stream told so far
  private final long[] finalUsage = blank();
  private final long[] inputUsage = blank();
  private boolean sawFinalUsage;
  private boolean sawInputUsage;
  private boolean sawResponse;
  private String model;

  // the document being read
  private final long[] docFinal = blank();
  private final long[] docInput = blank();
  private boolean docSawFinal;
  private boolean docSawInput;
  private boolean docSawResponse;
  private String docType;
  private String docModel;
  private String pendingDelta;
  private int captureDepth;

  UsageCollector(long fallbackInput, String requestModel, Function<String, TokenCounter> tokenizerFor) {
    this.fallbackInput = Math.max(0, fallbackInput);
    this.requestModel = requestModel;
    this.tokenizerFor = tokenizerFor;
  }

  private static long[] blank() {
    long[] values = new long[FIELDS];
    Arrays.fill(values, -1);
    return values;
  }

  void startDocument() {
    Arrays.fill(docFinal, -1);
    Arrays.fill(docInput, -1);
    docSawFinal = false;
    docSawInput = false;
    docSawResponse = false;
    docType = null;
    docModel = null;
    pendingDelta = null;
    captureDepth = 0;
    sample.mark();
  }

  void endDocument(boolean complete) {
    if (!complete) {
      sample.rollback();
      return;
    }
    if (pendingDelta != null && docType != null && docType.endsWith(".delta") && !docType.contains("audio")) {
      sample.append(pendingDelta); // Responses: response.output_text.delta, *.arguments.delta, ...
    }
    merge(docFinal, finalUsage);
    merge(docInput, inputUsage);
    sawFinalUsage |= docSawFinal;
    sawInputUsage |= docSawInput;
    sawResponse |= docSawResponse || docSawFinal || docSawInput
        || (docType != null && (docType.startsWith("response.") || ANTHROPIC_EVENTS.contains(docType)));
    if (docModel != null && !docModel.isEmpty()) {
      model = docModel;
    }
  }

  private static void merge(long[] from, long[] into) {
    for (int i = 0; i < FIELDS; i++) {
      if (from[i] >= 0) {
        into[i] = from[i];
      }
    }
  }

  @Override
  public void onToken(JsonToken token, JsonParser p) throws IOException {
    switch (token) {
      case START_OBJECT, START_ARRAY -> {
        JsonStreamContext holder = p.getParsingContext().getParent();
        if (captureDepth == 0 && token == JsonToken.START_OBJECT && at(holder, "content", ARRAY, "input")) {
          captureDepth = p.getParsingContext().getNestingDepth(); // Anthropic tool_use input
        } else if (token == JsonToken.START_ARRAY && holder.inObject()
            && holder.getParent() != null && holder.getParent().inRoot()
            && RESPONSE_CONTAINERS.contains(holder.getCurrentName())) {
          docSawResponse = true;
        }
      }
      case END_OBJECT, END_ARRAY -> {
        if (captureDepth > 0 && p.getParsingContext().getNestingDepth() < captureDepth) {
          captureDepth = 0;
        }
      }
      case FIELD_NAME -> {
        if (captureDepth > 0) {
          sample.append(p.currentName());
        }
      }
      case VALUE_STRING -> string(p);
      case VALUE_NUMBER_INT -> number(p);
      default -> { }
    }
  }

  private void string(JsonParser p) throws IOException {
    if (captureDepth > 0) {
      sample.append(p.getText());
      return;
    }
    JsonStreamContext ctx = p.getParsingContext();
    if (!ctx.inObject()) {
      return;
    }
    String name = ctx.getCurrentName();
    if (ctx.getNestingDepth() == 1) {
      switch (name) {
        case "model" -> docModel = p.getText();
        case "type" -> docType = p.getText();
        case "delta" -> pendingDelta = p.getText();
        default -> { }
      }
      return;
    }
    if ("model".equals(name) && (at(ctx, "response", "model") || at(ctx, "message", "model"))) {
      docModel = p.getText();
    } else if (TEXT_FIELDS.contains(name) && isGeneratedText(ctx, name)) {
      sample.append(p.getText());
    }
  }

  private static boolean isGeneratedText(JsonStreamContext c, String name) {
    return switch (name) {
      case "content", "reasoning_content", "reasoning" ->
          at(c, "choices", ARRAY, "delta", name) || at(c, "choices", ARRAY, "message", name);
      case "refusal" -> at(c, "choices", ARRAY, "delta", name) || at(c, "choices", ARRAY, "message", name)
          || at(c, "output", ARRAY, "content", ARRAY, name);
      case "arguments", "name" -> at(c, "choices", ARRAY, "delta", "tool_calls", ARRAY, "function", name)
          || at(c, "choices", ARRAY, "message", "tool_calls", ARRAY, "function", name)
          || at(c, "choices", ARRAY, "delta", "function_call", name)
          || at(c, "choices", ARRAY, "message", "function_call", name)
          || at(c, "output", ARRAY, name)
          || at(c, "content", ARRAY, name)
          || at(c, "content_block", name);
      case "text" -> at(c, "choices", ARRAY, name)
          || at(c, "output", ARRAY, "content", ARRAY, name)
          || at(c, "output", ARRAY, "summary", ARRAY, name)
          || at(c, "content", ARRAY, name)
          || at(c, "delta", name);
      case "partial_json" -> at(c, "delta", name);
      case "thinking" -> at(c, "delta", name) || at(c, "content", ARRAY, name);
      default -> false;
    };
  }

  private void number(JsonParser p) throws IOException {
    JsonStreamContext ctx = p.getParsingContext();
    if (!ctx.inObject()) {
      return;
    }
    int field = switch (ctx.getCurrentName()) {
      case "prompt_tokens" -> PROMPT;
      case "completion_tokens" -> COMPLETION;
      case "input_tokens" -> INPUT;
      case "output_tokens" -> OUTPUT;
      case "cache_creation_input_tokens" -> CACHE_CREATION;
      case "cache_read_input_tokens" -> CACHE_READ;
      case "cached_tokens" -> CACHED;
      default -> -1;
    };
    if (field < 0) {
      return;
    }
    JsonStreamContext usage = ctx;
    if (field == CACHED) {
      // usage.prompt_tokens_details.cached_tokens, usage.input_tokens_details.cached_tokens
      JsonStreamContext details = ctx.getParent();
      if (details == null || !details.inObject()
          || !("prompt_tokens_details".equals(details.getCurrentName())
              || "input_tokens_details".equals(details.getCurrentName()))) {
        return;
      }
      usage = details;
    }
    int where = usageLocation(usage);
    if (where == 0) {
      return;
    }
    // beyond a long is as absurd as Long.MAX_VALUE; clamped, a few figures add up without overflow
    long value = p.getNumberType() == JsonParser.NumberType.BIG_INTEGER
        ? (p.getBigIntegerValue().signum() < 0 ? -1 : TokenEstimate.MAX_TOKENS)
        : p.getLongValue();
    if (value < 0) {
      return;
    }
    value = TokenEstimate.clamp(value);
    if (where == 1) {
      docFinal[field] = value;
      docSawFinal = true;
    } else {
      docInput[field] = value;
      docSawInput = true;
    }
  }

  /**
   * Where the usage object holding a field sits: 1 for a final figure (top level, {@code
   * response.usage}), 2 for Anthropic's {@code message.usage} (input side only), 0 elsewhere.
   */
  private static int usageLocation(JsonStreamContext insideUsage) {
    JsonStreamContext holder = insideUsage.getParent();
    if (holder == null || !holder.inObject() || !"usage".equals(holder.getCurrentName())) {
      return 0;
    }
    JsonStreamContext outer = holder.getParent();
    if (outer == null) {
      return 0;
    }
    if (outer.inRoot()) {
      return 1;
    }
    if (outer.inObject() && outer.getParent() != null && outer.getParent().inRoot()) {
      if ("response".equals(outer.getCurrentName())) {
        return 1;
      }
      if ("message".equals(outer.getCurrentName())) {
        return 2;
      }
    }
    return 0;
  }

  Usage result() {
    Optional<String> responseModel = Optional.ofNullable(model);
    if (sawFinalUsage) {
      long[] merged = inputUsage.clone();
      merge(finalUsage, merged);
      return Usage.reported(input(merged), Math.max(0, first(merged[COMPLETION], merged[OUTPUT])),
          cacheRead(merged), Math.max(0, merged[CACHE_CREATION]), responseModel);
    }
    if (!sawResponse) {
      return Usage.unknown(responseModel);
    }
    TokenCounter tokenizer = tokenizerFor.apply(model != null ? model : requestModel);
    long output = sample.estimateTokens(tokenizer);
    if (sawInputUsage) {
      return Usage.estimated(input(inputUsage), output, cacheRead(inputUsage),
          Math.max(0, inputUsage[CACHE_CREATION]), responseModel);
    }
    return Usage.estimated(fallbackInput, output, 0, 0, responseModel);
  }

  /** All input, cached or not: Anthropic's input_tokens leaves its cache figures out. */
  private static long input(long[] u) {
    return Math.max(0, first(u[PROMPT], u[INPUT])) + Math.max(0, u[CACHE_CREATION]) + Math.max(0, u[CACHE_READ]);
  }

  private static long cacheRead(long[] u) {
    return u[CACHE_READ] >= 0 ? u[CACHE_READ] : Math.max(0, u[CACHED]);
  }

  private static long first(long a, long b) {
    return a >= 0 ? a : b;
  }
}
