package io.tollgate.testkit.llm;

import static io.tollgate.testkit.llm.LlmCalls.chatRequest;
import static io.tollgate.testkit.llm.LlmCalls.events;
import static io.tollgate.testkit.llm.LlmCalls.json;
import static io.tollgate.testkit.llm.LlmCalls.post;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class Http2Test extends ServerPerClassTest {

    /** A new client per test, so each test opens its own HTTP/2 connection. */
    private HttpClient http2;

    @BeforeEach
    void newHttp2Client() {
        http2 = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).connectTimeout(LlmCalls.TIMEOUT).build();
    }

    /** The JDK client can only reach h2c by Upgrade, and Jetty upgrades only a bodiless request. */
    private HttpResponse<String> openHttp2Connection() {
        HttpResponse<String> models = LlmCalls.get(http2, server.uri("/v1/models"));
        assertThat(models.version()).isEqualTo(HttpClient.Version.HTTP_2);
        return models;
    }

    @Test
    void upgradesABodilessRequestToHttp2() {
        HttpResponse<String> models = openHttp2Connection();

        assertThat(json(models.body()).at("/data/0/id").asText()).isEqualTo("gpt-4o-mini");
        assertThat(server.takeRequest(LlmCalls.TIMEOUT).httpVersion()).isEqualTo("HTTP/2.0");
    }

    @Test
    void aFirstPostIsAnsweredOverHttp11BecauseJettyWillNotUpgradeARequestWithABody() {
        HttpResponse<String> response = post(http2, server.uri("/v1/chat/completions"), chatRequest("gpt-4o", ""));

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.version()).isEqualTo(HttpClient.Version.HTTP_1_1);
    }

    @Test
    void answersJsonOverHttp2() {
        openHttp2Connection();

        HttpResponse<String> response = post(http2, server.uri("/v1/chat/completions"), chatRequest("gpt-4o", ""));

        assertThat(response.version()).isEqualTo(HttpClient.Version.HTTP_2);
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(json(response.body()).get("usage")).isEqualTo(json("""
                {"prompt_tokens":8,"completion_tokens":20,"total_tokens":28}"""));
        assertThat(server.requests().get(1).httpVersion()).isEqualTo("HTTP/2.0");
    }

    @Test
    void streamsEventsOverHttp2() {
        openHttp2Connection();

        HttpResponse<String> response = post(http2, server.uri("/v1/messages"),
                "{\"model\":\"claude-haiku-4-5\",\"max_tokens\":2,\"stream\":true,\"messages\":[]}",
                "x-api-key", "k", "anthropic-version", "2023-06-01");

        assertThat(response.version()).isEqualTo(HttpClient.Version.HTTP_2);
        assertThat(events(response.body())).extracting(LlmCalls.SseEvent::event).containsExactly(
                "message_start", "content_block_start", "ping", "content_block_delta", "content_block_delta",
                "content_block_stop", "message_delta", "message_stop");
    }

    @Test
    void resetMidStreamResetsTheHttp2StreamAfterTheFirstEvents() throws Exception {
        openHttp2Connection();
        server.script().next(1, Fault.resetMidStream(2));

        BrokenBodyFaultsTest.CutStream cut = BrokenBodyFaultsTest.readUntilFailure(http2,
                server.uri("/v1/chat/completions"), chatRequest("gpt-4o", "\"stream\":true"));

        assertThat(cut.status()).isEqualTo(200);
        assertThat(cut.dataLines()).hasSize(2);
        assertThat(cut.failure()).isInstanceOf(IOException.class);
        // Only the stream was reset: the connection still serves the next call over HTTP/2.
        HttpResponse<String> next = post(http2, server.uri("/v1/chat/completions"), chatRequest("gpt-4o", ""));
        assertThat(next.version()).isEqualTo(HttpClient.Version.HTTP_2);
        assertThat(next.statusCode()).isEqualTo(200);
    }

    @Test
    void multiplexesAHundredConcurrentStreamsOnOneConnection() {
        openHttp2Connection();
        server.script().always(Fault.latency(Duration.ofMillis(200)));

        List<CompletableFuture<HttpResponse<String>>> calls = IntStream.range(0, 100)
                .mapToObj(i -> http2.sendAsync(HttpRequest.newBuilder(server.uri("/v1/chat/completions"))
                        .POST(HttpRequest.BodyPublishers.ofString(chatRequest("model-" + i, "\"stream\":true")))
                        .build(),
                        HttpResponse.BodyHandlers.ofString()))
                .toList();

        List<HttpResponse<String>> responses = calls.stream().map(CompletableFuture::join).toList();
        assertThat(responses).allSatisfy(response -> {
            assertThat(response.version()).isEqualTo(HttpClient.Version.HTTP_2);
            assertThat(events(response.body())).hasSize(23);
        });
        assertThat(server.requests()).hasSize(101)
                .allSatisfy(request -> assertThat(request.httpVersion()).isEqualTo("HTTP/2.0"));
    }

    @Test
    void speaksHttp2ByPriorKnowledgeOnTheSamePort() throws IOException {
        try (Socket socket = new Socket("127.0.0.1", server.port())) {
            socket.setSoTimeout(5_000);
            OutputStream out = socket.getOutputStream();
            out.write("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.write(frame(0x4, 0, 0, new byte[0]));
            out.write(frame(0x1, 0x5, 1, getModelsHeaderBlock(server.port())));
            out.flush();

            DataInputStream in = new DataInputStream(socket.getInputStream());
            Frame first = Frame.read(in);
            Frame headers = Frame.readUntil(in, 0x1, 1);
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            Frame data;
            do {
                data = Frame.readUntil(in, 0x0, 1);
                body.write(data.payload());
            } while ((data.flags() & 0x1) == 0);

            assertThat(first.type()).as("server preface is a SETTINGS frame").isEqualTo(0x4);
            assertThat(headers.payload()[firstHeaderField(headers.payload())])
                    .as(":status 200 from the static table").isEqualTo((byte) 0x88);
            assertThat(json(body.toString(StandardCharsets.UTF_8)).get("object").asText()).isEqualTo("list");
        }
        assertThat(server.takeRequest(LlmCalls.TIMEOUT).httpVersion()).isEqualTo("HTTP/2.0");
    }

    /** Skips the dynamic table size update a header block may open with (RFC 7541, 6.3). */
    private static int firstHeaderField(byte[] block) {
        int index = 0;
        if ((block[0] & 0xe0) == 0x20) {
            index++;
            if ((block[0] & 0x1f) == 0x1f) {
                while ((block[index++] & 0x80) != 0) {
                    // continuation bytes of the size
                }
            }
        }
        return index;
    }

    /** GET /v1/models in HPACK: static-table indexes and literals without indexing, no Huffman. */
    private static byte[] getModelsHeaderBlock(int port) {
        ByteArrayOutputStream block = new ByteArrayOutputStream();
        block.write(0x82); // :method GET
        block.write(0x86); // :scheme http
        writeLiteral(block, 0x04, "/v1/models"); // :path
        writeLiteral(block, 0x01, "127.0.0.1:" + port); // :authority
        return block.toByteArray();
    }

    private static void writeLiteral(ByteArrayOutputStream block, int nameIndex, String value) {
        byte[] bytes = value.getBytes(StandardCharsets.US_ASCII);
        block.write(nameIndex);
        block.write(bytes.length);
        block.writeBytes(bytes);
    }

    private static byte[] frame(int type, int flags, int streamId, byte[] payload) {
        ByteArrayOutputStream frame = new ByteArrayOutputStream();
        frame.write(payload.length >>> 16);
        frame.write(payload.length >>> 8);
        frame.write(payload.length);
        frame.write(type);
        frame.write(flags);
        frame.write(streamId >>> 24);
        frame.write(streamId >>> 16);
        frame.write(streamId >>> 8);
        frame.write(streamId);
        frame.writeBytes(payload);
        return frame.toByteArray();
    }

    private record Frame(int type, int flags, int streamId, byte[] payload) {

        static Frame read(DataInputStream in) throws IOException {
            int length = in.readUnsignedByte() << 16 | in.readUnsignedByte() << 8 | in.readUnsignedByte();
            int type = in.readUnsignedByte();
            int flags = in.readUnsignedByte();
            int streamId = in.readInt() & 0x7fff_ffff;
            byte[] payload = in.readNBytes(length);
            return new Frame(type, flags, streamId, payload);
        }

        static Frame readUntil(DataInputStream in, int type, int streamId) throws IOException {
            Frame frame;
            do {
                frame = read(in);
            } while (frame.type() != type || frame.streamId() != streamId);
            return frame;
        }
    }
}
