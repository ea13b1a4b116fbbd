package io.tollgate.spring.boot.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.spring.boot.client.TollgateExchangeFilterFunction.Codecs;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.HttpMethod;
import org.springframework.http.codec.HttpMessageWriter;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.mock.http.client.reactive.MockClientHttpRequest;
import org.springframework.web.reactive.function.BodyInserter;
import org.springframework.web.reactive.function.BodyInserters;
import org.springframework.web.reactive.function.client.ClientRequest;
import reactor.core.publisher.Flux;

/**
 * A WebClient body read up to the bound: the inserter's publisher is asked for no more than the
 * buffers that reach it until the request is sent, and the request then gets every byte, once.
 */
class CapturedBodyTest {

  private static final int BOUND = 64 * 1024;
  private static final int CHUNK = 8192;
  private static final int CHUNKS = 2_500; // 20 MB

  @Test
  void holdsTheBoundPlusOneByteAndAsksForNothingMoreUntilSent() {
    AtomicLong published = new AtomicLong();
    Flux<DataBuffer> body = Flux.range(0, CHUNKS)
        .<DataBuffer>map(i -> DefaultDataBufferFactory.sharedInstance.wrap(chunk(i)))
        .doOnNext(buffer -> published.addAndGet(buffer.readableByteCount()));
    ClientRequest request = ClientRequest.create(HttpMethod.POST, URI.create("http://provider/v1/chat/completions"))
        .body(BodyInserters.fromDataBuffers(body)).build();

    CapturedBody captured = CapturedBody.of(request, Codecs.defaults().writers(), BOUND)
        .block(Duration.ofSeconds(10));

    assertThat(captured.whole()).isFalse();
    assertThat(captured.bytes()).hasSize(BOUND + 1);
    assertThat(published.get()).as("the buffer that crossed the bound, and none after it")
        .isEqualTo(9L * CHUNK);

    MockClientHttpRequest sent = new MockClientHttpRequest(HttpMethod.POST, "http://provider/v1/chat/completions");
    captured.inserter().insert(sent, context()).block(Duration.ofSeconds(10));
    byte[] bytes = DataBufferUtils.join(sent.getBody()).map(joined -> {
      byte[] all = new byte[joined.readableByteCount()];
      joined.read(all);
      return all;
    }).block(Duration.ofSeconds(10));

    ByteArrayOutputStream expected = new ByteArrayOutputStream();
    for (int i = 0; i < CHUNKS; i++) {
      expected.writeBytes(chunk(i));
    }
    assertThat(Arrays.equals(bytes, expected.toByteArray())).as("every byte, in order").isTrue();
    assertThat(captured.streamed().passedBytes()).isEqualTo((long) CHUNKS * CHUNK);
  }

  @Test
  void aBodyWithinTheBoundIsHeldWhole() {
    ClientRequest request = ClientRequest.create(HttpMethod.POST, URI.create("http://provider/v1/chat/completions"))
        .body(BodyInserters.fromValue("{\"model\":\"gpt-4o\"}")).build();

    CapturedBody captured = CapturedBody.of(request, Codecs.defaults().writers(), BOUND).block(Duration.ofSeconds(10));

    assertThat(captured.whole()).isTrue();
    assertThat(new String(captured.bytes(), java.nio.charset.StandardCharsets.UTF_8)).isEqualTo("{\"model\":\"gpt-4o\"}");
    assertThat(captured.streamed()).isNull();
  }

  private static byte[] chunk(int i) {
    byte[] chunk = new byte[CHUNK];
    Arrays.fill(chunk, (byte) ('a' + i % 26));
    return chunk;
  }

  private static BodyInserter.Context context() {
    return new BodyInserter.Context() {
      @Override
      public List<HttpMessageWriter<?>> messageWriters() {
        return Codecs.defaults().writers();
      }

      @Override
      public Optional<ServerHttpRequest> serverRequest() {
        return Optional.empty();
      }

      @Override
      public Map<String, Object> hints() {
        return Map.of();
      }
    };
  }
}
