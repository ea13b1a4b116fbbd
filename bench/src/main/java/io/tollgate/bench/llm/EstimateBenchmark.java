package io.tollgate.bench.llm;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;
import io.tollgate.llm.LlmProtocol;
import io.tollgate.llm.LlmRequest;
import io.tollgate.llm.ProviderApi;
import io.tollgate.llm.TokenCounter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The pre-call estimate of a ~32K-token prompt (English-like messages of ~3,300 characters, as
 * many as it takes), read from the raw request body: parse, tokenize, add overheads, once the
 * encoding is loaded ({@code estimate}); and jtokkit alone on the same messages ({@code
 * tokenizeOnly}), for what the rest costs.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class EstimateBenchmark {

  @Param({"openai", "anthropic"})
  public String api;

  private LlmProtocol protocol;
  private String path;
  private byte[] body;
  private String[] messages;
  private Encoding jtokkit;

  @Setup
  public void setUp() {
    boolean anthropic = api.equals("anthropic");
    protocol = LlmProtocol.of(anthropic ? ProviderApi.ANTHROPIC : ProviderApi.OPENAI);
    path = anthropic ? "/v1/messages" : "/v1/chat/completions";
    TokenCounter.awaitLoaded(Duration.ofMinutes(1)); // the estimates measured are exact counts
    TokenCounter counter = anthropic ? TokenCounter.anthropic() : TokenCounter.forModel("gpt-4o");
    jtokkit = Encodings.newDefaultEncodingRegistry()
        .getEncoding(anthropic ? EncodingType.CL100K_BASE : EncodingType.O200K_BASE);
    Random random = new Random(11);
    String[] words = ("the a rate limiter keeps every tenant within its budget of requests and tokens while "
        + "providers answer slowly or fail so the router falls back to another model with a larger "
        + "context window when needed , . ; ( ) 2024 42 JSON HTTP").split(" ");
    java.util.List<String> texts = new java.util.ArrayList<>();
    long tokens = 0;
    StringBuilder json = new StringBuilder("{\"model\":\"" + (anthropic ? "claude-sonnet-4-5" : "gpt-4o")
        + "\",\"max_tokens\":1024,\"messages\":[");
    for (int m = 0; tokens < 32_000; m++) {
      StringBuilder message = new StringBuilder();
      while (message.length() < 3300) {
        message.append(words[random.nextInt(words.length)]).append(' ');
      }
      texts.add(message.toString());
      tokens += counter.scale(counter.count(message.toString()));
      json.append(m == 0 ? "" : ",").append("{\"role\":\"").append(m % 2 == 0 ? "user" : "assistant")
          .append("\",\"content\":\"").append(message).append("\"}");
    }
    json.append("]}");
    messages = texts.toArray(new String[0]);
    body = json.toString().getBytes(StandardCharsets.UTF_8);
    LlmRequest request = protocol.readRequest(path, body, 1024);
    long prompt = request.estimate().promptTokens();
    if (prompt < 32_000 || prompt > 34_000) {
      throw new IllegalStateException("expected a ~32K-token prompt, got " + prompt);
    }
  }

  @Benchmark
  public LlmRequest estimate() {
    return protocol.readRequest(path, body, 1024);
  }

  @Benchmark
  public long tokenizeOnly() {
    long total = 0;
    for (String message : messages) {
      total += jtokkit.countTokensOrdinary(message);
    }
    return total;
  }
}
