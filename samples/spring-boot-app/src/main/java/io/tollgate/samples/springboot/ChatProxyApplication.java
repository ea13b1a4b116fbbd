package io.tollgate.samples.springboot;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A chat proxy: the app's tenants call {@code POST /v1/chat/completions}, the app calls its LLM
 * provider with its own key. With {@code tollgate-spring-boot-starter} on the class path and
 * {@code tollgate.*} in application.yml, and no Tollgate code: each tenant is limited on the way in
 * (the filter), each provider on the way out (the RestClient built from Boot's builder), a
 * fallback takes over when the primary cannot, and {@code /actuator/tollgate} shows the state.
 */
@SpringBootApplication
public class ChatProxyApplication {

  public static void main(String[] args) {
    SpringApplication.run(ChatProxyApplication.class, args);
  }
}
