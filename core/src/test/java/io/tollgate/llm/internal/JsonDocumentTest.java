package io.tollgate.llm.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The buffered and the incremental path see the same tokens, however the bytes are cut. */
class JsonDocumentTest {

  private static byte[] fixture(String name) {
    try (InputStream in = JsonDocumentTest.class.getResourceAsStream("/io/tollgate/llm/" + name)) {
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Every token with its text and the path depth it was read at. */
  private static List<String> tokens(byte[] json, int bufferedMax, int... splits) {
    List<String> seen = new ArrayList<>();
    JsonDocument document = new JsonDocument((token, parser) -> seen.add(token + " "
        + (token == JsonToken.VALUE_STRING || token == JsonToken.FIELD_NAME || token.isNumeric() ? parser.getText() : "")
        + " @" + parser.getParsingContext().getNestingDepth()), bufferedMax);
    int from = 0;
    for (int split : splits) {
      document.feed(json, from, split - from);
      from = split;
    }
    document.feed(json, from, json.length - from);
    seen.add(document.end() ? "complete" : "broken");
    return seen;
  }

  @ParameterizedTest
  @ValueSource(strings = {
    "responses/openai-chat.json", "responses/anthropic-message.json", "responses/openai-responses.json",
    "requests/anthropic-messages.json", "requests/responses-items.json"})
  void bothPathsAgreeAtEverySplit(String name) {
    byte[] json = fixture(name);
    List<String> buffered = tokens(json, JsonDocument.BUFFERED_MAX);

    assertThat(buffered).last().isEqualTo("complete");
    for (int at = 0; at <= json.length; at++) {
      assertThat(tokens(json, 0, at)).as("incremental, split at %d", at).isEqualTo(buffered);
      assertThat(tokens(json, 16, at)).as("switching at 16 bytes, split at %d", at).isEqualTo(buffered);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"{\"a\":", "{\"a\":\"\u00e9", "not json", "", "{\"a\":1}}"})
  void bothPathsCallABrokenDocumentBroken(String text) {
    byte[] json = text.getBytes(StandardCharsets.UTF_8);

    assertThat(tokens(json, JsonDocument.BUFFERED_MAX)).last().isEqualTo("broken");
    assertThat(tokens(json, 0)).last().isEqualTo("broken");
  }
}
