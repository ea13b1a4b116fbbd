package io.tollgate.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.testkit.redis.RedisServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import redis.clients.jedis.Jedis;

/** The SHA-1 the build writes beside each script is the one Redis names it by. */
class LuaScriptTest {

  @ParameterizedTest
  @ValueSource(strings = {"limiter", "breaker"})
  void theRecordedSha1IsTheOneRedisGivesTheScript(String name) {
    LuaScript script = LuaScript.load(name);

    try (RedisServer server = RedisServer.start(); Jedis jedis = server.jedis()) {
      assertThat(script.sha1()).isEqualTo(jedis.scriptLoad(script.source()))
          .isEqualTo(LuaScript.sha1(script.source()));
      assertThat(jedis.scriptExists(script.sha1())).isTrue();
    }
  }

  @Test
  void theBuildStepWritesTheSha1OfEveryScriptBesideIt(@TempDir Path directory) throws IOException {
    Files.writeString(directory.resolve("one.lua"), "return 1\n", StandardCharsets.UTF_8);
    Files.writeString(directory.resolve("two.lua"), "return 'é'\n", StandardCharsets.UTF_8);
    Files.writeString(directory.resolve("notes.txt"), "not a script", StandardCharsets.UTF_8);

    LuaScript.main(new String[] {directory.toString()});

    // sha1sum of the same bytes
    assertThat(directory.resolve("one.lua.sha1"))
        .hasContent("48df9b519ca145c867b895f740b37bd891e887af");
    assertThat(directory.resolve("two.lua.sha1")).hasContent("a49ed92e705fe5fa6c99337f0c242c63a8cf6648");
    assertThat(directory.resolve("notes.txt.sha1")).doesNotExist();
  }

  @Test
  void aDirectoryWithoutScriptsFailsTheBuild(@TempDir Path directory) {
    assertThatThrownBy(() -> LuaScript.main(new String[] {directory.toString()}))
        .isInstanceOf(IOException.class)
        .hasMessage("no .lua script in " + directory);
  }

  @Test
  void aMissingScriptIsNamed() {
    assertThatThrownBy(() -> LuaScript.load("absent"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("/io/tollgate/lua/absent.lua is missing from the classpath");
  }
}
