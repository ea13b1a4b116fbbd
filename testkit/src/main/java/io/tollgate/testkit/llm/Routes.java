package io.tollgate.testkit.llm;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Which API a path belongs to, and the answers to requests that reach no API. */
final class Routes {

    private static final Pattern AZURE_CHAT = Pattern.compile("/openai/deployments/([^/]+)/chat/completions");

    private Routes() {
    }

    /** The LLM API served at {@code path} (by POST), if any. */
    static Optional<ProviderApi> apiAt(String path) {
        switch (path) {
            case "/v1/chat/completions":
                return Optional.of(OpenAiApi.CHAT_COMPLETIONS);
            case "/v1/responses":
                return Optional.of(OpenAiApi.RESPONSES);
            case "/v1/messages":
                return Optional.of(AnthropicMessagesApi.INSTANCE);
            default:
                Matcher azure = AZURE_CHAT.matcher(path);
                return azure.matches() ? Optional.of(new AzureChatApi(azure.group(1))) : Optional.empty();
        }
    }

    /**
     * {@code GET /v1/models} lists one model (handy as a bodiless first request, see
     * {@link MockLlmServer}); a known API path with the wrong method is a 405; anything else a 404.
     * All in OpenAI's shape, as no other provider shares these paths.
     */
    static Reply nonApiReply(RecordedRequest request, boolean apiPath) {
        String target = request.method() + " " + request.path();
        if (target.equals("GET /v1/models")) {
            return Reply.json(200, modelList());
        }
        if (apiPath) {
            return OpenAiShapes.error(405, "Method " + request.method() + " is not allowed for " + request.path()
                    + "; use POST.", "invalid_request_error", null, "method_not_allowed")
                    .withHeaders(Map.of("allow", "POST"));
        }
        return OpenAiShapes.error(404, "Unknown request URL: " + target + ". Please check the URL for typos, or see"
                + " the docs at https://platform.openai.com/docs/api-reference/.", "invalid_request_error", null,
                "unknown_url");
    }

    private static ObjectNode modelList() {
        ObjectNode model = Json.object();
        model.put("id", "gpt-4o-mini");
        model.put("object", "model");
        model.put("created", 1_721_172_741L);
        model.put("owned_by", "system");
        ObjectNode list = Json.object();
        list.put("object", "list");
        list.set("data", Json.array().add(model));
        return list;
    }
}
