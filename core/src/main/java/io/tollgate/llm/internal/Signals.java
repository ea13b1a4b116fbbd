package io.tollgate.llm.internal;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.tollgate.llm.Headers;
import io.tollgate.llm.ProviderSignals;
import io.tollgate.llm.Quota;
import io.tollgate.llm.QuotaKind;
import io.tollgate.llm.ResponseClass;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Reads what a provider's response says, whatever its API: both header families are read
 * (OpenAI / Azure {@code x-ratelimit-*}, Anthropic {@code anthropic-ratelimit-*}), since a
 * compatible server may send either. Negative figures (Azure sends -1 when it has none) count as
 * absent.
 */
final class Signals {

  /** How much of an error body is read: errors are small, and the body may not be one. */
  static final int MAX_ERROR_BODY = 64 * 1024;

  private static final String[] CONTEXT_MARKERS = {
    "context_length_exceeded", "maximum context length", "context window", "context length",
    "prompt is too long", "exceed context limit", "input is too long", "too many input tokens",
    "string_above_max_length"
  };
  private static final String[] BILLING_MARKERS = {"credit balance", "spend limit", "billing"};

  // the families of fields read: quotaHeaders keeps exactly the fields under these prefixes
  private static final String OPENAI = "x-ratelimit-";
  private static final String ANTHROPIC = "anthropic-ratelimit-";
  private static final String RETRY_AFTER = "retry-after";

  private Signals() {}

  static ProviderSignals read(int status, Headers headers, byte[] body, Instant now) {
    Map<String, String> h = quotaHeaders(headers);
    ErrorBody error = ErrorBody.read(body);
    Map<QuotaKind, Quota> quotas = new EnumMap<>(QuotaKind.class);
    Optional<Duration> retryAfter = Optional.empty();
    if (!h.isEmpty()) {
      retryAfter = Durations.parseMillis(h.get(RETRY_AFTER + "-ms"));
      if (retryAfter.isEmpty()) {
        retryAfter = Durations.parseRetryAfter(h.get(RETRY_AFTER), now);
      }
      openAi(h, "requests", QuotaKind.REQUESTS, quotas);
      openAi(h, "tokens", QuotaKind.TOKENS, quotas);
      anthropic(h, "requests", QuotaKind.REQUESTS, quotas, now);
      anthropic(h, "tokens", QuotaKind.TOKENS, quotas, now);
      anthropic(h, "input-tokens", QuotaKind.INPUT_TOKENS, quotas, now);
      anthropic(h, "output-tokens", QuotaKind.OUTPUT_TOKENS, quotas, now);
    }
    return new ProviderSignals(status, classify(status, error), retryAfter, quotas,
        Optional.ofNullable(error.type), Optional.ofNullable(error.code));
  }

  /**
   * The retry and quota fields, by lower-case name, each its first value: one pass over the
   * response's headers instead of a search for each of the twenty names read (most responses of
   * a compatible server carry none of them).
   */
  private static Map<String, String> quotaHeaders(Headers headers) {
    if (headers == null) {
      return Map.of();
    }
    Map<String, String> found = null;
    for (Headers.Field field : headers.fields()) {
      String name = field.name();
      if (startsWithIgnoreCase(name, OPENAI) || startsWithIgnoreCase(name, RETRY_AFTER)
          || startsWithIgnoreCase(name, ANTHROPIC)) {
        if (found == null) {
          found = new HashMap<>();
        }
        found.putIfAbsent(name.toLowerCase(Locale.ROOT), field.value());
      }
    }
    return found == null ? Map.of() : found;
  }

  private static boolean startsWithIgnoreCase(String name, String prefix) {
    return name.regionMatches(true, 0, prefix, 0, prefix.length());
  }

  /** The classification table of docs/llm-protocol.md. */
  static ResponseClass classify(int status, ErrorBody error) {
    String type = lower(error.type);
    String code = lower(error.code);
    String message = lower(error.message);
    if ("overloaded_error".equals(type)) {
      return ResponseClass.OVERLOADED; // Anthropic, whatever the status (also mid-stream)
    }
    if (status < 400) {
      return ResponseClass.SUCCESS;
    }
    if (status == 429) {
      return "insufficient_quota".equals(code) || "insufficient_quota".equals(type)
          ? ResponseClass.QUOTA_EXHAUSTED : ResponseClass.RATE_LIMITED;
    }
    if (status == 402 || "billing_error".equals(type)) {
      return ResponseClass.QUOTA_EXHAUSTED;
    }
    if (status == 401 || status == 403) {
      return ResponseClass.AUTH_ERROR;
    }
    if (status == 400 || status == 413 || status == 422) {
      if (containsAny(code, CONTEXT_MARKERS) || (status == 400 && containsAny(message, CONTEXT_MARKERS))) {
        return ResponseClass.CONTEXT_LENGTH_ERROR;
      }
      if (status == 400 && containsAny(message, BILLING_MARKERS)) {
        return ResponseClass.QUOTA_EXHAUSTED; // Anthropic: "Your credit balance is too low"
      }
      return ResponseClass.CLIENT_ERROR;
    }
    if (status == 503 || status == 529) {
      return ResponseClass.OVERLOADED;
    }
    if (status >= 500 || status == 408) {
      return ResponseClass.SERVER_ERROR;
    }
    return ResponseClass.CLIENT_ERROR;
  }

  private static void openAi(Map<String, String> h, String dimension, QuotaKind kind,
      Map<QuotaKind, Quota> into) {
    OptionalLong limit = count(h.get(OPENAI + "limit-" + dimension));
    OptionalLong remaining = count(h.get(OPENAI + "remaining-" + dimension));
    Optional<Duration> reset = Durations.parseGo(h.get(OPENAI + "reset-" + dimension));
    put(kind, limit, remaining, reset, into);
  }

  private static void anthropic(Map<String, String> h, String dimension, QuotaKind kind,
      Map<QuotaKind, Quota> into, Instant now) {
    String prefix = ANTHROPIC + dimension + "-";
    OptionalLong limit = count(h.get(prefix + "limit"));
    OptionalLong remaining = count(h.get(prefix + "remaining"));
    Optional<Duration> reset = Durations.parseResetInstant(h.get(prefix + "reset"), now);
    put(kind, limit, remaining, reset, into);
  }

  private static void put(QuotaKind kind, OptionalLong limit, OptionalLong remaining, Optional<Duration> reset,
      Map<QuotaKind, Quota> into) {
    if (limit.isEmpty() && remaining.isEmpty() && reset.isEmpty()) {
      return;
    }
    Quota earlier = into.get(kind);
    if (earlier != null) {
      // Both families on one response: keep what each one told.
      limit = limit.isPresent() ? limit : earlier.limit();
      remaining = remaining.isPresent() ? remaining : earlier.remaining();
      reset = reset.isPresent() ? reset : earlier.resetAfter();
    }
    into.put(kind, new Quota(limit, remaining, reset));
  }

  private static OptionalLong count(String value) {
    if (value == null) {
      return OptionalLong.empty();
    }
    try {
      long v = Long.parseLong(value.trim());
      return v < 0 ? OptionalLong.empty() : OptionalLong.of(v);
    } catch (NumberFormatException e) {
      return OptionalLong.empty();
    }
  }

  private static String lower(String s) {
    return s == null ? "" : s.toLowerCase(Locale.ROOT);
  }

  private static boolean containsAny(String s, String[] markers) {
    if (s.isEmpty()) {
      return false;
    }
    for (String marker : markers) {
      if (s.contains(marker)) {
        return true;
      }
    }
    return false;
  }

  /**
   * The parts of an error body that classify it: OpenAI / Azure {@code {"error": {"type", "code",
   * "message"}}}, Anthropic {@code {"type": "error", "error": {"type", "message"}}}. The message is
   * only matched against, never kept: it can quote a key's ends or the prompt.
   */
  static final class ErrorBody {
    private static final ErrorBody NONE = new ErrorBody(null, null, null);
    private static final int MAX_MESSAGE = 2048;

    final String type;
    final String code;
    final String message;

    private ErrorBody(String type, String code, String message) {
      this.type = type;
      this.code = code;
      this.message = message;
    }

    static ErrorBody read(byte[] body) {
      if (body == null || body.length == 0) {
        return NONE;
      }
      String type = null;
      String code = null;
      String message = null;
      try (JsonParser p = Json.RESPONSES.createParser(body, 0, Math.min(body.length, MAX_ERROR_BODY))) {
        if (p.nextToken() != JsonToken.START_OBJECT) {
          return NONE;
        }
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          String key = p.currentName();
          JsonToken value = p.nextToken();
          if ("error".equals(key) && value == JsonToken.START_OBJECT) {
            while (p.nextToken() == JsonToken.FIELD_NAME) {
              String field = p.currentName();
              JsonToken v = p.nextToken();
              if (v.isScalarValue() && v != JsonToken.VALUE_NULL) {
                switch (field) {
                  case "type" -> type = p.getText();
                  case "code" -> code = p.getText();
                  case "message" -> message = clip(p.getText());
                  default -> { }
                }
              } else {
                p.skipChildren();
              }
            }
          } else if ("message".equals(key) && value == JsonToken.VALUE_STRING && message == null) {
            message = clip(p.getText()); // some compatible servers put it at the top
          } else {
            p.skipChildren();
          }
        }
      } catch (IOException | RuntimeException truncatedOrNotJson) {
        // keep what was read before the body stopped making sense
      }
      return new ErrorBody(type, code, message);
    }

    private static String clip(String s) {
      return s.length() > MAX_MESSAGE ? s.substring(0, MAX_MESSAGE) : s;
    }
  }
}
