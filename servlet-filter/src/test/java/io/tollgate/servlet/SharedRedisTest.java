package io.tollgate.servlet;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.testkit.redis.RedisServer;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Two containers, one Redis: a tenant's limit holds across the fleet, exactly. */
class SharedRedisTest {

  @Test
  void aTenantsAdmittedCountIsExactAcrossAJettyAndATomcatSharingOneRedis() throws Exception {
    try (RedisServer redis = RedisServer.start();
        ServletContainer jetty = JettyContainer.deploy(WebApps.prepare("webapp", redis.uri().toString()));
        ServletContainer tomcat = TomcatContainer.deploy(WebApps.prepare("webapp", redis.uri().toString()))) {
      List<Integer> statuses = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        for (ServletContainer container : List.of(jetty, tomcat)) {
          HttpResponse<String> response = Http.send(Http.json(container.uri(FilterContract.CHAT),
              FilterContract.CHAT_BODY).header("X-Tenant-Id", "five-an-hour"));
          statuses.add(response.statusCode());
        }
      }

      // requests-per-hour: 5 (an hour, so that nothing refills during the test), one bucket for both containers.
      assertThat(statuses).containsExactly(200, 200, 200, 200, 200, 429, 429, 429);
      assertThat(redis.jedis().keys("tg:{inbound:*}:s")).hasSize(1);
    }
  }
}
