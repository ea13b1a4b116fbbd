package io.tollgate.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The tree the binder reads: scalars as written, YAML's nulls, anchors, and what is refused. */
class YamlTreeTest {

  @Test
  void keepsEveryScalarAsWrittenAndReadsYamlsNullsAsNull() {
    ConfigNode.Mapping root = YamlTree.parse("""
        plain: off
        number: 1.0
        quoted-null: 'null'
        double-quoted-empty: ""
        tagged-text: !!str ~
        nothing:
        tilde: ~
        word: null
        capital: Null
        upper: NULL
        tagged-null: !!null whatever
        """, "test");

    assertThat(root.entries()).containsExactly(
        Map.entry("plain", new ConfigNode.Scalar("off")),
        Map.entry("number", new ConfigNode.Scalar("1.0")),
        Map.entry("quoted-null", new ConfigNode.Scalar("null")),
        Map.entry("double-quoted-empty", new ConfigNode.Scalar("")),
        Map.entry("tagged-text", new ConfigNode.Scalar("~")),
        Map.entry("nothing", new ConfigNode.Scalar(null)),
        Map.entry("tilde", new ConfigNode.Scalar(null)),
        Map.entry("word", new ConfigNode.Scalar(null)),
        Map.entry("capital", new ConfigNode.Scalar(null)),
        Map.entry("upper", new ConfigNode.Scalar(null)),
        Map.entry("tagged-null", new ConfigNode.Scalar(null)));
  }

  @Test
  void readsNestedMappingsAndListsInTheirOrder() {
    ConfigNode.Mapping root = YamlTree.parse("""
        tollgate:
          providers:
            openai:
              fallbacks: [backup, other]
            backup: {api: openai}
        """, "test");

    ConfigNode.Mapping openai = new ConfigNode.Mapping(Map.of("fallbacks", new ConfigNode.Sequence(
        List.of(new ConfigNode.Scalar("backup"), new ConfigNode.Scalar("other")))), false);
    ConfigNode.Mapping backup = new ConfigNode.Mapping(Map.of("api", new ConfigNode.Scalar("openai")), false);
    ConfigNode.Mapping providers = (ConfigNode.Mapping)
        ((ConfigNode.Mapping) root.entries().get("tollgate")).entries().get("providers");
    assertThat(providers.entries()).containsExactly(Map.entry("openai", openai), Map.entry("backup", backup));
  }

  @Test
  void anAliasStandsForTheNodeItsAnchorNames() {
    TollgateConfig config = Loaders.yaml("""
        tollgate:
          providers:
            openai:
              base-url: https://api.openai.com/v1
              limits: &shared
                requests-per-minute: 60
                tokens-per-minute: 90000
            backup:
              base-url: https://backup.example.com/v1
              api: openai
              limits: *shared
        """);

    assertThat(config.providers().get("backup").limits())
        .isEqualTo(config.providers().get("openai").limits());
    assertThat(config.providers().get("backup").limits().requestsPerMinute()).hasValue(60);
    assertThat(config.providers().get("backup").limits().tokensPerMinute()).hasValue(90000);
  }

  @Test
  void anAliasWithoutAnEarlierAnchorIsAnError() {
    assertThatThrownBy(() -> YamlTree.parse("tollgate:\n  limits: *nowhere\n", "test"))
        .isInstanceOf(ConfigException.class)
        .hasMessage("tollgate.limits refers to the anchor &nowhere, which no earlier value sets");
  }

  @Test
  void aKeyThatIsNotASingleValueIsAnError() {
    assertThatThrownBy(() -> YamlTree.parse("tollgate:\n  ? [a, b]\n  : x\n", "test"))
        .isInstanceOf(ConfigException.class)
        .hasMessage("tollgate has a key that is not a single value, at line 2");
  }

  @Test
  void aCharacterYamlForbidsIsAnErrorThatGivesItsPlace() {
    char[] bell = new char[] {'t', 'o', 'l', 'l', 'g', 'a', 't', 'e', ':', ' ', 7};

    assertThatThrownBy(() -> YamlTree.parse(new String(bell), "test"))
        .isInstanceOf(ConfigException.class)
        .hasMessage("test is not valid YAML at character 11: special characters are not allowed");
  }

  @Test
  void anEmptyTextOrOneOfCommentsIsAnEmptyMapping() {
    assertThat(YamlTree.parse("", "test").entries()).isEmpty();
    assertThat(YamlTree.parse("# nothing yet\n", "test").entries()).isEmpty();
  }
}
