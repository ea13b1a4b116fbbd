package io.tollgate.llm.internal;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.tollgate.llm.EstimateBasis;
import io.tollgate.llm.LlmEndpoint;
import io.tollgate.llm.LlmRequest;
import io.tollgate.llm.ProviderApi;
import io.tollgate.llm.TokenCounter;
import io.tollgate.llm.TokenEstimate;
import java.io.IOException;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Reads a request body with Jackson's streaming parser, in two passes: the top-level settings
 * first (the model decides the tokenizer, and may come last), then the prompt. No tree is built;
 * strings Tollgate does not count (base64 media, ids, signatures) are skipped undecoded.
 */
final class RequestReader {

  /** OpenAI's chat format: every message costs 3 tokens, a name 1 more, the reply priming 3. */
  static final int TOKENS_PER_MESSAGE = 3;
  static final int TOKENS_PER_NAME = 1;
  static final int REPLY_PRIMING = 3;
  /** An image or other media part: a 1024×1024 high-detail image for OpenAI (85 + 4 × 170). */
  static final int OPENAI_MEDIA_TOKENS = 765;
  /** An image for Anthropic: (width × height) / 750 for a 1.15-megapixel image, its largest size. */
  static final int ANTHROPIC_MEDIA_TOKENS = 1600;
  /** The system prompt Anthropic adds when tools are given (tool_choice auto or none). */
  static final int ANTHROPIC_TOOL_PROMPT = 346;
  /** Largest {@code n} believed; more is clamped rather than reserving a fortune. */
  static final int MAX_CHOICES = 128;

  private static final Set<String> SKIPPED = Set.of(
      "type", "id", "call_id", "tool_call_id", "tool_use_id", "signature", "cache_control",
      "detail", "format", "media_type", "mime_type", "status", "encrypted_content", "data",
      "index", "audio", "annotations", "logprobs", "citations", "filename", "container");
  private static final Set<String> MEDIA = Set.of(
      "image_url", "input_audio", "file", "source", "file_data", "file_id", "image", "image_file");

  private final ProviderApi api;
  private final LlmEndpoint endpoint;
  private final Optional<String> deployment;
  private final long defaultMaxOutput;

  // pass 1
  private String model;
  private long maxTokens = -1;
  private long maxCompletionTokens = -1;
  private long maxOutputTokens = -1;
  private long choices = 1;
  private boolean stream;
  private boolean includeUsage;

  // pass 2
  private PromptCounter prompt;
  private int mediaTokens;

  private RequestReader(ProviderApi api, String path, long defaultMaxOutput) {
    this.api = api;
    this.endpoint = EndpointPaths.endpoint(path);
    this.deployment = api == ProviderApi.AZURE_OPENAI ? EndpointPaths.azureDeployment(path) : Optional.empty();
    this.defaultMaxOutput = Math.max(0, defaultMaxOutput);
  }

  static LlmRequest read(ProviderApi api, String path, byte[] body, int offset, int length, long defaultMaxOutput) {
    RequestReader reader = new RequestReader(api, path, defaultMaxOutput);
    return reader.read(body, offset, length);
  }

  /**
   * A request of which only the first {@code length} bytes are held, the rest going to the provider
   * unread: its settings as far as those bytes hold them, its prompt estimated from the body's
   * size, {@code bodyBytes}.
   */
  static LlmRequest readPrefix(ProviderApi api, String path, byte[] prefix, int offset, int length,
      long bodyBytes, long defaultMaxOutput) {
    RequestReader reader = new RequestReader(api, path, defaultMaxOutput);
    return reader.readPrefix(prefix, offset, length, bodyBytes);
  }

  private LlmRequest readPrefix(byte[] prefix, int offset, int length, long bodyBytes) {
    if (prefix == null || offset < 0 || length < 0 || offset + length > prefix.length) {
      prefix = new byte[0];
      offset = 0;
      length = 0;
    }
    if (endpoint == LlmEndpoint.OTHER) {
      return request(new TokenEstimate(0, 0, EstimateBasis.NONE, ""));
    }
    try {
      settings(prefix, offset, withoutCutNumber(prefix, offset, length));
    } catch (IOException | RuntimeException | StackOverflowError cut) {
      // the prefix ends inside the body: the settings read before the cut are kept
    }
    if (endpoint == LlmEndpoint.COUNT_TOKENS) {
      return request(new TokenEstimate(0, 0, EstimateBasis.NONE, ""));
    }
    return request(TokenEstimate.fromBodySize(bodyBytes, outputEstimate()));
  }

  /**
   * {@code length} less the characters of a number the prefix may end inside: {@code
   * "max_tokens":12} cut from {@code "max_tokens":1200} must not be read as 12.
   */
  private static int withoutCutNumber(byte[] prefix, int offset, int length) {
    int end = length;
    while (end > 0 && isNumberByte(prefix[offset + end - 1])) {
      end--;
    }
    return end;
  }

  private static boolean isNumberByte(byte b) {
    return (b >= '0' && b <= '9') || b == '-' || b == '+' || b == '.' || b == 'e' || b == 'E';
  }

  private LlmRequest read(byte[] body, int offset, int length) {
    if (body == null || offset < 0 || length < 0 || offset + length > body.length) {
      body = new byte[0];
      offset = 0;
      length = 0;
    }
    if (endpoint == LlmEndpoint.OTHER) {
      return request(new TokenEstimate(0, 0, EstimateBasis.NONE, ""));
    }
    try {
      settings(body, offset, length);
      TokenCounter tokenizer = tokenizer();
      if (endpoint == LlmEndpoint.COUNT_TOKENS) {
        return request(new TokenEstimate(0, 0, EstimateBasis.NONE, ""));
      }
      prompt = new PromptCounter(tokenizer);
      mediaTokens = endpoint == LlmEndpoint.MESSAGES || tokenizer.approximate()
          ? ANTHROPIC_MEDIA_TOKENS : OPENAI_MEDIA_TOKENS;
      countPrompt(body, offset, length);
      EstimateBasis basis = tokenizer.approximate() ? EstimateBasis.APPROXIMATION : EstimateBasis.TOKENIZER;
      return request(new TokenEstimate(prompt.total(), outputEstimate(), basis, tokenizer.encodingName()));
    } catch (IOException | RuntimeException | StackOverflowError malformed) {
      // Not JSON, or not what the endpoint takes: reserve by size, and let the provider say no.
      long output = endpoint == LlmEndpoint.EMBEDDINGS ? 0 : defaultMaxOutput;
      return request(TokenEstimate.fromBodySize(length, output));
    }
  }

  private LlmRequest request(TokenEstimate estimate) {
    long cap = statedCap();
    return new LlmRequest(api, endpoint, Optional.ofNullable(model), deployment,
        cap < 0 ? OptionalLong.empty() : OptionalLong.of(cap), stream, stream && includeUsage, estimate);
  }

  private TokenCounter tokenizer() {
    if (api == ProviderApi.ANTHROPIC) {
      return TokenCounter.anthropic();
    }
    return TokenCounter.forModel(deployment.orElse(model));
  }

  private long statedCap() {
    return switch (endpoint) {
      case CHAT_COMPLETIONS -> maxCompletionTokens >= 0 ? maxCompletionTokens : maxTokens;
      case RESPONSES -> maxOutputTokens;
      case COMPLETIONS, MESSAGES -> maxTokens;
      default -> -1;
    };
  }

  private long outputEstimate() {
    return switch (endpoint) {
      case EMBEDDINGS, COUNT_TOKENS, OTHER -> 0;
      // clamped before multiplying: n × a huge cap must not wrap round to a small figure
      case CHAT_COMPLETIONS, COMPLETIONS -> TokenEstimate.clamp(capOrDefault()) * choices;
      default -> capOrDefault();
    };
  }

  private long capOrDefault() {
    long cap = statedCap();
    return cap >= 0 ? cap : defaultMaxOutput;
  }

  // ---- pass 1: settings -------------------------------------------------------------------

  private void settings(byte[] body, int offset, int length) throws IOException {
    try (JsonParser p = Json.REQUESTS.createParser(body, offset, length)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw new IOException("the body is not a JSON object");
      }
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String key = p.currentName();
        JsonToken value = p.nextToken();
        switch (key) {
          case "model" -> model = value == JsonToken.VALUE_STRING ? p.getText() : model;
          case "max_tokens" -> maxTokens = count(p, value);
          case "max_completion_tokens" -> maxCompletionTokens = count(p, value);
          case "max_output_tokens" -> maxOutputTokens = count(p, value);
          case "n" -> {
            long n = count(p, value);
            choices = n < 1 ? 1 : Math.min(n, MAX_CHOICES);
          }
          case "stream" -> stream = value == JsonToken.VALUE_TRUE;
          case "stream_options" -> includeUsage = includeUsage(p);
          default -> p.skipChildren();
        }
      }
      if (p.currentToken() != JsonToken.END_OBJECT || p.nextToken() != null) {
        throw new IOException("trailing content after the JSON object");
      }
    }
  }

  /**
   * A non-negative integer, else -1 (absent, null, negative or fractional); one beyond a long is
   * {@link TokenEstimate#MAX_TOKENS}, as absurd as {@code Long.MAX_VALUE}.
   */
  private static long count(JsonParser p, JsonToken value) throws IOException {
    if (value != JsonToken.VALUE_NUMBER_INT) {
      p.skipChildren();
      return -1;
    }
    if (p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
      return p.getBigIntegerValue().signum() < 0 ? -1 : TokenEstimate.MAX_TOKENS;
    }
    long v = p.getLongValue();
    return v < 0 ? -1 : v;
  }

  private static boolean includeUsage(JsonParser p) throws IOException {
    if (p.currentToken() != JsonToken.START_OBJECT) {
      p.skipChildren();
      return false;
    }
    boolean include = false;
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String key = p.currentName();
      JsonToken value = p.nextToken();
      if ("include_usage".equals(key)) {
        include = value == JsonToken.VALUE_TRUE;
      } else {
        p.skipChildren();
      }
    }
    return include;
  }

  // ---- pass 2: the prompt -----------------------------------------------------------------

  private void countPrompt(byte[] body, int offset, int length) throws IOException {
    boolean hasTools = false;
    try (JsonParser p = Json.REQUESTS.createParser(body, offset, length)) {
      p.nextToken();
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String key = p.currentName();
        p.nextToken();
        switch (endpoint) {
          case CHAT_COMPLETIONS -> {
            switch (key) {
              case "messages" -> messages(p);
              case "tools", "functions" -> hasTools |= ToolCounter.count(p, prompt);
              case "response_format" -> walk(p, true);
              default -> p.skipChildren();
            }
          }
          case RESPONSES -> {
            switch (key) {
              case "input" -> responsesInput(p);
              case "instructions" -> instruction(p, "system");
              case "tools" -> hasTools |= ToolCounter.count(p, prompt);
              case "text" -> walk(p, true);
              default -> p.skipChildren();
            }
          }
          case MESSAGES -> {
            switch (key) {
              case "system" -> instruction(p, "system");
              case "messages" -> messages(p);
              case "tools" -> hasTools |= ToolCounter.count(p, prompt);
              default -> p.skipChildren();
            }
          }
          case COMPLETIONS -> {
            if ("prompt".equals(key)) {
              tokenInputs(p);
            } else {
              p.skipChildren();
            }
          }
          case EMBEDDINGS -> {
            if ("input".equals(key)) {
              tokenInputs(p);
            } else {
              p.skipChildren();
            }
          }
          default -> p.skipChildren();
        }
      }
    }
    if (endpoint == LlmEndpoint.CHAT_COMPLETIONS || endpoint == LlmEndpoint.RESPONSES
        || endpoint == LlmEndpoint.MESSAGES) {
      prompt.overhead(REPLY_PRIMING);
    }
    if (hasTools && endpoint == LlmEndpoint.MESSAGES) {
      prompt.modelTokens(ANTHROPIC_TOOL_PROMPT);
    }
  }

  /** Chat and Anthropic messages: 3 per message, its role, content and name (+1). */
  private void messages(JsonParser p) throws IOException {
    if (p.currentToken() != JsonToken.START_ARRAY) {
      walk(p, false);
      return;
    }
    while (p.nextToken() != JsonToken.END_ARRAY) {
      prompt.overhead(TOKENS_PER_MESSAGE);
      if (p.currentToken() != JsonToken.START_OBJECT) {
        walk(p, false);
        continue;
      }
      boolean media = false;
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String key = p.currentName();
        p.nextToken();
        if ("name".equals(key) && p.currentToken() == JsonToken.VALUE_STRING) {
          prompt.currentString(p);
          prompt.overhead(TOKENS_PER_NAME);
        } else {
          media = field(key, p, false, media);
        }
      }
    }
  }

  /** Responses {@code input}: a string is one user message; items cost 3 each, like messages. */
  private void responsesInput(JsonParser p) throws IOException {
    if (p.currentToken() == JsonToken.VALUE_STRING) {
      prompt.overhead(TOKENS_PER_MESSAGE);
      prompt.text("user");
      prompt.currentString(p);
      return;
    }
    if (p.currentToken() != JsonToken.START_ARRAY) {
      walk(p, false);
      return;
    }
    while (p.nextToken() != JsonToken.END_ARRAY) {
      prompt.overhead(TOKENS_PER_MESSAGE);
      walk(p, false);
    }
  }

  /** Responses {@code instructions}, Anthropic {@code system}: a system message. */
  private void instruction(JsonParser p, String role) throws IOException {
    if (p.currentToken() == JsonToken.VALUE_NULL) {
      return;
    }
    prompt.overhead(TOKENS_PER_MESSAGE);
    prompt.text(role);
    walk(p, false);
  }

  /** Completions {@code prompt}, embeddings {@code input}: strings, or token ids counted one each. */
  private void tokenInputs(JsonParser p) throws IOException {
    switch (p.currentToken()) {
      case VALUE_STRING -> prompt.currentString(p);
      case VALUE_NUMBER_INT -> prompt.overhead(1);
      case START_ARRAY -> {
        while (p.nextToken() != JsonToken.END_ARRAY) {
          tokenInputs(p);
        }
      }
      default -> p.skipChildren();
    }
  }

  /**
   * Counts the strings of any value: message content, parts, tool calls, items. Ids, types and
   * signatures are skipped; a media part counts a fixed figure once; field names count only in
   * JSON the model reads as such ({@code countNames}: tool inputs, schemas).
   */
  private void walk(JsonParser p, boolean countNames) throws IOException {
    switch (p.currentToken()) {
      case VALUE_STRING -> prompt.currentString(p);
      case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT, VALUE_TRUE, VALUE_FALSE -> {
        if (countNames) {
          prompt.overhead(1);
        }
      }
      case START_ARRAY -> {
        while (p.nextToken() != JsonToken.END_ARRAY) {
          walk(p, countNames);
        }
      }
      case START_OBJECT -> {
        boolean media = false;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          String key = p.currentName();
          p.nextToken();
          media = field(key, p, countNames, media);
        }
      }
      default -> p.skipChildren();
    }
  }

  /** One field of an object being walked; returns whether the object's media was counted. */
  private boolean field(String key, JsonParser p, boolean countNames, boolean mediaCounted) throws IOException {
    if (countNames) {
      prompt.text(key);
      walk(p, true);
      return mediaCounted;
    }
    if (SKIPPED.contains(key)) {
      p.skipChildren();
      return mediaCounted;
    }
    if (MEDIA.contains(key)) {
      if (!mediaCounted) {
        prompt.modelTokens(mediaTokens);
      }
      p.skipChildren();
      return true;
    }
    // Anthropic tool_use input: JSON the model wrote, names and all.
    walk(p, "input".equals(key) && p.currentToken() == JsonToken.START_OBJECT);
    return mediaCounted;
  }
}
