package io.tollgate.bench.openaiapp;

import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.models.ChatModel;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * An app of the kind teams run: the official OpenAI Java SDK making one chat call as {@code main}
 * begins, then exiting. It prints the lines {@code AgentBench}'s start-up table reads:
 * {@code main}, {@code first-call STATUS}, {@code cpu-ms N} then, as {@code main} ends,
 * {@code end-cpu-ms N} and {@code peak-rss-kb N} (Linux's /proc; -1 elsewhere).
 *
 * <pre>
 * OpenAiStartupApp BASE_URL      (the server's root; the SDK adds /v1/chat/completions)
 * </pre>
 */
public final class OpenAiStartupApp {

  private OpenAiStartupApp() {}

  public static void main(String[] args) {
    System.out.println("main");
    System.out.flush();
    OpenAIClient client = OpenAIOkHttpClient.builder()
        .baseUrl(args[0] + "/v1")
        .apiKey("sk-bench")
        .maxRetries(0)
        .build();
    try {
      ChatCompletion completion = client.chat().completions().create(
          ChatCompletionCreateParams.builder()
              .model(ChatModel.GPT_4O)
              .maxCompletionTokens(50)
              .addUserMessage("Say hello to the benchmark in five words.")
              .build());
      System.out.println("first-call " + (completion.choices().isEmpty() ? 0 : 200));
      System.out.println("cpu-ms " + cpuMillis());
    } finally {
      client.close();
    }
    System.out.println("end-cpu-ms " + cpuMillis());
    System.out.println("peak-rss-kb " + peakRssKb());
    System.out.flush();
  }

  /** User and system time of this process from /proc (ticks of 1/100 s), in ms; -1 elsewhere. */
  private static long cpuMillis() {
    try {
      String stat = Files.readString(Path.of("/proc/self/stat"), StandardCharsets.US_ASCII);
      String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) * 10;
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  /** The most resident memory this process has held (VmHWM), in KiB; -1 elsewhere. */
  private static long peakRssKb() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"), StandardCharsets.US_ASCII)) {
        if (line.startsWith("VmHWM:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", ""));
        }
      }
    } catch (IOException | RuntimeException e) {
      // not Linux
    }
    return -1;
  }
}
