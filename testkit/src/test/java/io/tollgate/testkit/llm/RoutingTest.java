package io.tollgate.testkit.llm;

import static io.tollgate.testkit.llm.LlmCalls.json;
import static io.tollgate.testkit.llm.LlmCalls.post;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

class RoutingTest extends ServerPerClassTest {

    @Test
    void anUnknownPathIsAnOpenAiShaped404() {
        HttpResponse<String> response = post(client, server.uri("/v2/chat/completions"), "{}");

        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(response.headers().firstValue("content-type")).hasValue("application/json");
        assertThat(json(response.body())).isEqualTo(json("""
                {"error":{"message":"Unknown request URL: POST /v2/chat/completions. Please check the URL for typos, \
                or see the docs at https://platform.openai.com/docs/api-reference/.",
                 "type":"invalid_request_error","param":null,"code":"unknown_url"}}"""));
    }

    @Test
    void aKnownPathWithAnotherMethodIsA405() {
        HttpResponse<String> response = LlmCalls.get(client, server.uri("/v1/messages"));

        assertThat(response.statusCode()).isEqualTo(405);
        assertThat(response.headers().firstValue("allow")).hasValue("POST");
        assertThat(json(response.body()).at("/error/code").asText()).isEqualTo("method_not_allowed");
    }

    @Test
    void listsAModelWithoutAuthEvenWhenAKeyIsRequired() {
        server.requireApiKey("sk-required");

        HttpResponse<String> response = LlmCalls.get(client, server.uri("/v1/models"));

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(json(response.body())).isEqualTo(json("""
                {"object":"list","data":[{"id":"gpt-4o-mini","object":"model","created":1721172741,
                                          "owned_by":"system"}]}"""));
    }

    @Test
    void requestsOutsideTheApisDrawNoFault() {
        server.script().next(1, Fault.status(500));

        LlmCalls.get(client, server.uri("/v1/models"));
        post(client, server.uri("/nowhere"), "{}");

        assertThat(server.script().queuedCount()).isEqualTo(1);
        assertThat(server.requestCount()).isEqualTo(2);
    }
}
