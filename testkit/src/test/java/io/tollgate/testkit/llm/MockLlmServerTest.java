package io.tollgate.testkit.llm;

import static io.tollgate.testkit.llm.LlmCalls.chatRequest;
import static io.tollgate.testkit.llm.LlmCalls.json;
import static io.tollgate.testkit.llm.LlmCalls.post;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.ConnectException;
import java.net.Socket;
import java.net.http.HttpClient;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class MockLlmServerTest {

    private final HttpClient client = LlmCalls.http1Client();

    @Test
    void twoServersRunSideBySideWithTheirOwnScriptsSettingsAndRecordings() {
        try (MockLlmServer primary = MockLlmServer.start(); MockLlmServer backup = MockLlmServer.start()) {
            primary.script().always(Fault.status(503));
            backup.replyText("from the backup");

            int primaryStatus = post(client, primary.uri("/v1/chat/completions"), chatRequest("gpt-4o", ""))
                    .statusCode();
            String backupReply = json(post(client, backup.uri("/v1/chat/completions"), chatRequest("gpt-4o", ""))
                    .body()).at("/choices/0/message/content").asText();

            assertThat(primary.port()).isNotEqualTo(backup.port());
            assertThat(primaryStatus).isEqualTo(503);
            assertThat(backupReply).isEqualTo("from the backup");
            assertThat(primary.requestCount()).isEqualTo(1);
            assertThat(backup.requestCount()).isEqualTo(1);
        }
    }

    @Test
    void listensOnLoopbackAtTheAdvertisedUrl() {
        try (MockLlmServer server = MockLlmServer.start()) {
            assertThat(server.baseUrl()).isEqualTo("http://127.0.0.1:" + server.port());
            assertThat(server.uri("/v1/models?x=1")).hasToString(server.baseUrl() + "/v1/models?x=1");
            assertThat(server).hasToString("MockLlmServer[" + server.baseUrl() + "]");
        }
    }

    @Test
    void stopFreesThePortAndMayBeRepeated() throws IOException {
        MockLlmServer server = MockLlmServer.start();
        int port = server.port();

        server.stop();
        server.close();

        assertThatThrownBy(() -> new Socket("127.0.0.1", port).close()).isInstanceOf(ConnectException.class);
    }

    @Test
    void rejectsBadSettingsNamingTheValue() {
        try (MockLlmServer server = MockLlmServer.start()) {
            assertThatThrownBy(() -> server.usage(-1, 5)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("promptTokens must be >= 0, was -1");
            assertThatThrownBy(() -> server.usage(5, -2)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("completionTokens must be >= 0, was -2");
            assertThatThrownBy(() -> server.cachedTokens(-1)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("cachedPromptTokens must be >= 0, was -1");
            assertThatThrownBy(() -> server.chunkDelay(Duration.ofMillis(-1)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("chunkDelay must be >= 0, was PT-0.001S");
            assertThatThrownBy(() -> server.requireApiKey(" ")).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("apiKey must not be blank, was ' '");
            assertThatThrownBy(() -> server.uri("v1/models")).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("pathAndQuery must start with '/', was v1/models");
        }
    }

    @Test
    void rateLimitsRejectImpossibleStates() {
        assertThatThrownBy(() -> new RateLimits(10, 11, Duration.ZERO, 100, 1, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("remaining requests must be within 0..10, was 11");
        assertThatThrownBy(() -> new RateLimits(10, 1, Duration.ZERO, 0, 0, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("tokens limit must be > 0, was 0");
        assertThatThrownBy(() -> new RateLimits(10, 1, Duration.ofSeconds(-1), 5, 0, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("requestsReset must be >= 0, was PT-1S");
    }
}
