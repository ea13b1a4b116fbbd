package io.tollgate.bench.config;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.tollgate.config.TollgateConfigLoader;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.events.Event;
import org.yaml.snakeyaml.parser.ParserImpl;
import org.yaml.snakeyaml.reader.StreamReader;

/**
 * Reading the agent benchmark's configuration once in a fresh JVM, as the agent does at start:
 * the YAML walked with SnakeYAML's event parser (what {@code YamlTree} does) against the same YAML
 * walked with jackson-dataformat-yaml's parser on top of it (what it did before), and the whole
 * read (YAML and binding) for scale. Single shot per fork: the cold cost is the point.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 0)
@Measurement(iterations = 1)
@Fork(20)
public class YamlReadBenchmark {

  private static final String YAML = """
      tollgate:
        providers:
          openai:
            base-url: http://127.0.0.1:8080/v1
            api: openai
            limits:
              requests-per-minute: 100000000
              tokens-per-minute: 100000000000
      """;

  @Benchmark
  public int snakeYamlEvents() {
    ParserImpl parser = new ParserImpl(new StreamReader(YAML), new LoaderOptions());
    int events = 0;
    while (!parser.getEvent().is(Event.ID.StreamEnd)) {
      events++;
    }
    return events;
  }

  @Benchmark
  public int jacksonYamlTokens() throws IOException {
    int tokens = 0;
    try (JsonParser parser = new YAMLFactory().createParser(YAML)) {
      while (parser.nextToken() != null) {
        parser.getText();
        tokens++;
      }
    }
    return tokens;
  }

  @Benchmark
  public Object wholeConfiguration() {
    return TollgateConfigLoader.create().fromYaml(YAML);
  }
}
