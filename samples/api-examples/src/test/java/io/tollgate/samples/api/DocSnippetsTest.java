package io.tollgate.samples.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every Java snippet a user reads (the README's and docs/' {@code ```java} blocks, the core's and
 * the servlet filter's javadoc {@code <pre>{@code ...}} blocks) is code of this module, which the build compiles: its
 * lines, each stripped of its indentation, appear in this order in one example (a line that
 * begins with {@code // ...} stands for code the snippet leaves out). A snippet whose API
 * is renamed or removed thus fails the build instead of misleading its reader.
 */
class DocSnippetsTest {

  private static final Path ROOT = Path.of("../..");
  private static final Path EXAMPLES = Path.of("src/main/java/io/tollgate/samples/api");
  private static final Pattern MARKDOWN = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL);
  private static final Pattern JAVADOC = Pattern.compile("<pre>\\{@code\\n(.*?)}</pre>",
      Pattern.DOTALL);

  @Test
  void everyJavaSnippetOfTheReadmeTheDocsAndTheCoresJavadocIsCompiledCode() throws IOException {
    List<String> examples = new ArrayList<>();
    try (Stream<Path> files = Files.list(EXAMPLES)) {
      for (Path file : files.sorted().toList()) {
        examples.add(lines(Files.readString(file)));
      }
    }
    List<Snippet> snippets = snippets();
    assertThat(snippets).as("snippets found").hasSizeGreaterThanOrEqualTo(10);
    List<String> notCompiled = snippets.stream()
        .filter(snippet -> examples.stream().noneMatch(example -> holds(example, snippet.code())))
        .map(snippet -> snippet.where() + ":" + snippet.code())
        .toList();
    assertThat(notCompiled).as("snippets that are not code of samples/api-examples").isEmpty();
  }

  private static List<Snippet> snippets() throws IOException {
    List<Snippet> snippets = new ArrayList<>();
    List<Path> markdown = new ArrayList<>(List.of(ROOT.resolve("README.md")));
    try (Stream<Path> docs = Files.walk(ROOT.resolve("docs"))) {
      docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(markdown::add);
    }
    for (Path file : markdown) {
      Matcher blocks = MARKDOWN.matcher(Files.readString(file));
      while (blocks.find()) {
        snippets.add(new Snippet(ROOT.relativize(file).toString(), lines(blocks.group(1))));
      }
    }
    List<Path> javadoc = new ArrayList<>();
    for (String module : List.of("core", "servlet-filter")) {
      try (Stream<Path> sources = Files.walk(ROOT.resolve(module + "/src/main/java"))) {
        sources.filter(p -> p.toString().endsWith(".java")).sorted().forEach(javadoc::add);
      }
    }
    for (Path file : javadoc) {
      Matcher blocks = JAVADOC.matcher(Files.readString(file));
      while (blocks.find()) {
        String code = blocks.group(1).replaceAll("(?m)^\\s*\\* ?", "");
        if (!code.strip().startsWith("<") && !code.lines().findFirst().orElse("")
            .matches("[\\w-]+:.*")) { // XML and YAML examples are not Java
          snippets.add(new Snippet(ROOT.relativize(file).toString(), lines(code)));
        }
      }
    }
    return snippets;
  }

  /**
   * True when {@code example} holds {@code code}: its parts between lines that begin with
   * {@code // ...} (code left out of the snippet) appear whole and in that order.
   */
  private static boolean holds(String example, String code) {
    int from = 0;
    for (String part : code.split("\n// \\.\\.\\.[^\n]*\n")) {
      if (part.isBlank()) {
        continue;
      }
      String whole = (part.startsWith("\n") ? "" : "\n") + part + (part.endsWith("\n") ? "" : "\n");
      int at = example.indexOf(whole, from);
      if (at < 0) {
        return false;
      }
      from = at + whole.length() - 1;
    }
    return true;
  }

  /** The non-blank lines, each stripped, one per line. */
  private static String lines(String text) {
    return text.lines().map(String::strip).filter(line -> !line.isEmpty())
        .collect(Collectors.joining("\n", "\n", "\n"));
  }

  private record Snippet(String where, String code) {}
}
