package io.tollgate.testkit.llm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class TokenAccountingTest {

    private static int promptTokens(String body) {
        return TokenAccounting.promptTokens(LlmCalls.json(body));
    }

    @Test
    void countsStringContentAtAQuarterTokenPerCharacterRoundedUp() {
        assertThat(promptTokens("{\"messages\":[{\"role\":\"user\",\"content\":\"12345\"}]}")).isEqualTo(2);
        assertThat(promptTokens("{\"messages\":[{\"role\":\"user\",\"content\":\"1234\"}]}")).isEqualTo(1);
    }

    @Test
    void countsTextPartsSystemInstructionsAndInputButNotRolesOrTypes() {
        String body = """
                {"model":"a-very-long-model-name","system":[{"type":"text","text":"abcd"}],
                 "instructions":"efgh","input":"ijkl",
                 "messages":[{"role":"user","content":[{"type":"text","text":"mnop"},{"type":"image_url"}]}]}""";

        assertThat(promptTokens(body)).isEqualTo(4);
    }

    @Test
    void countsCodePointsNotUtf16Units() {
        assertThat(promptTokens("{\"input\":\"\uD83D\uDE00\uD83D\uDE00\uD83D\uDE00\uD83D\uDE00\"}")).isEqualTo(1);
    }

    @Test
    void reportsAtLeastOnePromptToken() {
        assertThat(promptTokens("{\"messages\":[]}")).isEqualTo(1);
        assertThat(TokenAccounting.promptTokens(com.fasterxml.jackson.databind.node.MissingNode.getInstance()))
                .isEqualTo(1);
    }

    @Test
    void completionTokensAreTheConfiguredCountUnlessTheRequestCapsThemLower() {
        assertThat(TokenAccounting.completionTokens(20, OptionalInt.empty())).isEqualTo(20);
        assertThat(TokenAccounting.completionTokens(20, OptionalInt.of(5))).isEqualTo(5);
        assertThat(TokenAccounting.completionTokens(20, OptionalInt.of(500))).isEqualTo(20);
        assertThat(TokenAccounting.completionTokens(20, OptionalInt.of(-3))).isZero();
    }

    @Test
    void cachedPromptTokensAreTheConfiguredCountCappedAtThePromptTokens() {
        assertThat(TokenAccounting.cachedPromptTokens(40, 100)).isEqualTo(40);
        assertThat(TokenAccounting.cachedPromptTokens(40, 8)).isEqualTo(8);
        assertThat(TokenAccounting.cachedPromptTokens(0, 8)).isZero();
    }

    @Test
    void replyTextSplitsIntoWordChunksThatConcatenateBack() {
        assertThat(ReplyText.chunks("Hi there,  you\nall")).containsExactly("Hi ", "there,  ", "you\n", "all");
        assertThat(ReplyText.chunks("")).isEmpty();
        assertThat(ReplyText.defaultText(3)).isEqualTo("This is a");
        assertThat(ReplyText.chunks(ReplyText.defaultText(25))).hasSize(25);
    }
}
