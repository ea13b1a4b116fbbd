package io.tollgate.agent.okhttp.helpers;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import okhttp3.HttpUrl;
import org.junit.jupiter.api.Test;

/** The URL of an OkHttp call as the gate's {@link URI}: the same as OkHttp's own conversion. */
class GatedCallUriTest {

  @Test
  void anOrdinaryUrlIsTheSameUriOkHttpWouldMake() {
    HttpUrl url = HttpUrl.get("https://API.example.com:8443/openai/deployments/gpt-4o/chat/completions"
        + "?api-version=2024-10-21&x=%20y#part");

    URI uri = GatedCall.uriOf(url);

    assertThat(uri).isEqualTo(url.uri());
    assertThat(uri.getHost()).isEqualTo("api.example.com");
    assertThat(uri.getPort()).isEqualTo(8443);
    assertThat(uri.getRawQuery()).isEqualTo("api-version=2024-10-21&x=%20y");
  }

  @Test
  void charactersAUriRefusesAreReEncodedAsOkHttpDoes() {
    // OkHttp keeps {, | and } raw in a query; java.net.URI refuses them
    HttpUrl url = HttpUrl.get("http://127.0.0.1:8080/v1/chat/completions?filter={a|b}");

    URI uri = GatedCall.uriOf(url);

    assertThat(uri).isEqualTo(url.uri());
    assertThat(uri.getRawQuery()).isEqualTo("filter=%7Ba%7Cb%7D");
    assertThat(uri.getPath()).isEqualTo("/v1/chat/completions");
  }
}
