package io.tollgate.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.testkit.redis.RedisServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import redis.clients.jedis.Jedis;

/** The SHA-1 a script is loaded with is the one Redis names it by. */
class LuaScriptTest {

  @ParameterizedTest
  @ValueSource(strings = {"limiter", "breaker"})
  void theSha1IsTheOneRedisGivesTheScript(String name) {
    LuaScript script = LuaScript.load(name);

    try (RedisServer server = RedisServer.start(); Jedis jedis = server.jedis()) {
      assertThat(script.sha1()).isEqualTo(jedis.scriptLoad(script.source()))
          .isEqualTo(LuaScript.sha1(script.source()));
      assertThat(jedis.scriptExists(script.sha1())).isTrue();
    }
  }

  @Test
  void theSha1IsOfTheScriptsUtf8Bytes() {
    // sha1sum of the same bytes
    assertThat(LuaScript.sha1("return 1\n")).isEqualTo("48df9b519ca145c867b895f740b37bd891e887af");
    assertThat(LuaScript.sha1("return 'é'\n")).isEqualTo("a49ed92e705fe5fa6c99337f0c242c63a8cf6648");
  }

  @Test
  void aMissingScriptIsNamed() {
    assertThatThrownBy(() -> LuaScript.load("absent"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("/io/tollgate/lua/absent.lua is missing from the classpath");
  }
}
