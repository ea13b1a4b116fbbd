package io.tollgate.testkit.llm;

import java.net.http.HttpClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;

/**
 * Base of the HTTP tests: one server and one HTTP/1.1 client per test class, the server reset
 * after each test, so every test starts from a fresh script, settings and request count.
 */
abstract class ServerPerClassTest {

    static MockLlmServer server;
    static HttpClient client;

    @BeforeAll
    static void startServer() {
        server = MockLlmServer.start();
        client = LlmCalls.http1Client();
    }

    @AfterEach
    void resetServer() {
        server.reset();
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }
}
