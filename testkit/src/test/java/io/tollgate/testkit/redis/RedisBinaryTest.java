package io.tollgate.testkit.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.tollgate.testkit.redis.internal.EmbeddedBinaries;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;

class RedisBinaryTest {

  @TempDir Path emptyDirectory;
  @TempDir Path fakeInstall;

  @Test
  void prefersTheFirstRedisServerOnPath() throws IOException {
    Path fake = fakeRedisServer(fakeInstall, "9.9.9");

    String path = emptyDirectory + File.pathSeparator + fakeInstall;

    RedisBinary binary = RedisBinary.resolve(null, path);

    assertThat(binary.source()).isEqualTo(RedisBinary.Source.PATH);
    assertThat(binary.path()).isEqualTo(fake);
    assertThat(binary.version()).isEqualTo("9.9.9");
    assertThat(binary.majorVersion()).isEqualTo(9);
  }

  @Test
  void fallsBackToTheEmbeddedBinaryWhenPathHasNone() {
    RedisBinary binary = RedisBinary.resolve(null, emptyDirectory.toString());

    assertThat(binary.source()).isEqualTo(RedisBinary.Source.EMBEDDED);
    assertThat(binary.version()).startsWith("6.2.");
  }

  @Test
  void embeddedSettingWinsOverPath() throws IOException {
    fakeRedisServer(fakeInstall, "9.9.9");

    RedisBinary binary = RedisBinary.resolve(" embedded ", fakeInstall.toString());

    assertThat(binary.source()).isEqualTo(RedisBinary.Source.EMBEDDED);
  }

  @Test
  void explicitSettingNamesTheBinary() throws IOException {
    Path fake = fakeRedisServer(fakeInstall, "8.0.1");

    RedisBinary binary = RedisBinary.resolve(fake.toString(), emptyDirectory.toString());

    assertThat(binary.source()).isEqualTo(RedisBinary.Source.EXPLICIT);
    assertThat(binary.path()).isEqualTo(fake);
    assertThat(binary.version()).isEqualTo("8.0.1");
  }

  @Test
  void rejectsASettingThatIsNeitherEmbeddedNorAnExecutable() {
    assertThatThrownBy(() -> RedisBinary.resolve("/no/such/redis-server", null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("tollgate.redis.binary (or TOLLGATE_REDIS_BINARY) must be 'embedded' or the"
            + " path of an executable redis-server, was /no/such/redis-server");
  }

  @Test
  void onPathIgnoresEmptyAndMissingEntries() {
    assertThat(RedisBinary.onPath(File.pathSeparator + "/no/such/dir" + File.pathSeparator))
        .isEmpty();
    assertThat(RedisBinary.onPath(null)).isEmpty();
  }

  @Test
  void embeddedBinaryIsExtractedOnceToAPerUserCacheAndReused() {
    Path first = RedisBinary.embedded().path();
    Path second = RedisBinary.embedded().path();

    assertThat(second).isEqualTo(first);
    assertThat(first.getFileName()).hasToString("redis-server");
    String resource = EmbeddedBinaries.resourceFor(
        System.getProperty("os.name"), System.getProperty("os.arch"));
    assertThat(first.getParent().getFileName().toString())
        .startsWith("tollgate-redis-" + System.getProperty("user.name")
            + resource.replace('/', '-'));
    assertThat(Files.isExecutable(first)).isTrue();
  }

  @Test
  void systemPropertyForcesTheEmbeddedBinaryForServers() {
    String before = System.getProperty(RedisBinary.PROPERTY);
    System.setProperty(RedisBinary.PROPERTY, RedisBinary.EMBEDDED);
    try (RedisServer server = RedisServer.start(); Jedis jedis = server.jedis()) {
      assertThat(server.binary().source()).isEqualTo(RedisBinary.Source.EMBEDDED);
      assertThat(server.version()).startsWith("6.2.");
      assertThat(jedis.set("k", "v")).isEqualTo("OK");
      assertThat(jedis.eval("return redis.call('GET', KEYS[1])", 1, "k")).isEqualTo("v");
    } finally {
      restore(before);
    }
  }

  @Test
  void binaryOnPathReportsItsOwnVersionOverInfo() {
    Optional<RedisBinary> onPath = RedisBinary.onPath(System.getenv("PATH"));
    assumeTrue(onPath.isPresent(), "no redis-server on PATH");

    try (RedisServer server = RedisServer.builder().binary(onPath.get()).start()) {
      assertThat(server.binary().source()).isEqualTo(RedisBinary.Source.PATH);
      assertThat(server.version()).isEqualTo(onPath.get().version());
    }
  }

  @Test
  void mapsEachPlatformToTheBinaryShippedForIt() {
    assertThat(EmbeddedBinaries.resourceFor("Linux", "amd64"))
        .isEqualTo("/redis-server-6.2.6-v5-linux-amd64");
    assertThat(EmbeddedBinaries.resourceFor("Linux", "aarch64"))
        .isEqualTo("/redis-server-6.2.7-linux-arm64");
    assertThat(EmbeddedBinaries.resourceFor("Mac OS X", "x86_64"))
        .isEqualTo("/redis-server-6.2.6-v5-darwin-amd64");
    assertThat(EmbeddedBinaries.resourceFor("Mac OS X", "aarch64"))
        .isEqualTo("/redis-server-6.2.6-v5-darwin-arm64");
    assertThatThrownBy(() -> EmbeddedBinaries.resourceFor("Windows 11", "amd64"))
        .isInstanceOf(RedisFixtureException.class)
        .hasMessageStartingWith(
            "embedded-redis ships no redis-server for os.name=Windows 11, os.arch=amd64");
  }

  private static Path fakeRedisServer(Path directory, String version) throws IOException {
    Path script = directory.resolve("redis-server");
    Files.writeString(script,
        "#!/bin/sh\necho \"Redis server v=" + version + " sha=00000000:0 malloc=libc bits=64\"\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
    return script;
  }

  private static void restore(String before) {
    if (before == null) {
      System.clearProperty(RedisBinary.PROPERTY);
    } else {
      System.setProperty(RedisBinary.PROPERTY, before);
    }
  }
}
