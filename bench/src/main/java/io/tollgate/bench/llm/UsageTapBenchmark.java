package io.tollgate.bench.llm;

import io.tollgate.llm.LlmProtocol;
import io.tollgate.llm.ProviderApi;
import io.tollgate.llm.Usage;
import io.tollgate.llm.UsageTappingInputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
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
import org.openjdk.jmh.infra.Blackhole;

/**
 * What the streaming usage tap adds to reading a 10 MB SSE response, against reading the same
 * bytes raw in the same run: the app's loop is the same 8 KiB read either way.
 *
 * <ul>
 *   <li>{@code openai}: chat chunks with one short content delta each, then the final usage chunk;
 *   <li>{@code openai-no-usage}: the same without usage, so the tap estimates at the end (it
 *       tokenizes its 64 Ki-char sample once);
 *   <li>{@code anthropic}: message_start, content_block_delta events, message_delta.
 * </ul>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class UsageTapBenchmark {

  static final int SIZE = 10 * 1024 * 1024;

  @Param({"openai", "openai-no-usage", "anthropic"})
  public String shape;

  private byte[] stream;
  private LlmProtocol protocol;

  @Setup
  public void setUp() {
    protocol = LlmProtocol.of(shape.startsWith("openai") ? ProviderApi.OPENAI : ProviderApi.ANTHROPIC);
    stream = build(shape);
    // Fails the run rather than measuring a tap that reads nothing.
    Usage usage;
    try {
      usage = tapped(new Blackhole("Today's password is swordfish. I understand instantiating Blackholes directly is dangerous."));
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    if (!usage.known()) {
      throw new IllegalStateException("the tap read no usage from the " + shape + " stream");
    }
  }

  @Benchmark
  public long raw(Blackhole bh) throws IOException {
    return drain(new ByteArrayInputStream(stream), bh);
  }

  @Benchmark
  public Usage tapped(Blackhole bh) throws IOException {
    UsageTappingInputStream in = UsageTappingInputStream.of(new ByteArrayInputStream(stream),
        protocol.newUsageTap("text/event-stream", true));
    drain(in, bh);
    in.close();
    return in.usage();
  }

  private static long drain(InputStream in, Blackhole bh) throws IOException {
    byte[] buffer = new byte[8192];
    long total = 0;
    int n;
    while ((n = in.read(buffer)) >= 0) {
      bh.consume(buffer);
      total += n;
    }
    return total;
  }

  static byte[] build(String shape) {
    Random random = new Random(7);
    String[] words = {"the", " model", " answers", " with", " tokens", ",", " 世界", " 🙂", " and", " more", " text", "."};
    ByteArrayOutputStream out = new ByteArrayOutputStream(SIZE + 4096);
    if (shape.equals("anthropic")) {
      write(out, "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\","
          + "\"role\":\"assistant\",\"content\":[],\"model\":\"claude-sonnet-4-5\",\"usage\":{\"input_tokens\":1200,"
          + "\"cache_read_input_tokens\":0,\"output_tokens\":1}}}\n\n");
    }
    long deltas = 0;
    while (out.size() < SIZE) {
      String delta = words[random.nextInt(words.length)];
      deltas++;
      if (shape.equals("anthropic")) {
        write(out, "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,"
            + "\"delta\":{\"type\":\"text_delta\",\"text\":\"" + delta + "\"}}\n\n");
      } else {
        write(out, "data: {\"id\":\"chatcmpl-bench\",\"object\":\"chat.completion.chunk\",\"created\":1730000000,"
            + "\"model\":\"gpt-4o-2024-08-06\",\"system_fingerprint\":\"fp_bench\",\"choices\":[{\"index\":0,"
            + "\"delta\":{\"content\":\"" + delta + "\"},\"logprobs\":null,\"finish_reason\":null}]}\n\n");
      }
    }
    switch (shape) {
      case "openai" -> write(out, "data: {\"id\":\"chatcmpl-bench\",\"object\":\"chat.completion.chunk\",\"model\":"
          + "\"gpt-4o-2024-08-06\",\"choices\":[],\"usage\":{\"prompt_tokens\":1200,\"completion_tokens\":" + deltas
          + ",\"total_tokens\":" + (1200 + deltas) + "}}\n\ndata: [DONE]\n\n");
      case "anthropic" -> write(out, "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":"
          + "{\"stop_reason\":\"end_turn\"},\"usage\":{\"output_tokens\":" + deltas + "}}\n\n"
          + "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n");
      default -> write(out, "data: [DONE]\n\n");
    }
    return out.toByteArray();
  }

  private static void write(ByteArrayOutputStream out, String s) {
    out.writeBytes(s.getBytes(StandardCharsets.UTF_8));
  }
}
