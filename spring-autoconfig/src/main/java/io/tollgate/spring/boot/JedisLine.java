package io.tollgate.spring.boot;

import io.tollgate.config.ConfigException;
import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import org.springframework.util.ClassUtils;

/**
 * Tollgate's Redis client needs Jedis 8. Spring Boot's dependency management pins its own Jedis
 * line (6.0 in Boot 3.5, 7.0 in Boot 4.0), which wins over the version Tollgate asks for in every
 * app that imports Boot's BOM; without this check the app would fail later with a
 * {@code NoClassDefFoundError} deep inside the limiter.
 */
final class JedisLine {

  /** A class Jedis 8 has and the lines Boot manages do not. */
  static final String JEDIS_8_CLASS = "redis.clients.jedis.RedisClient";

  private JedisLine() {}

  /** @throws ConfigException naming {@code tollgate.redis} and the fix when Jedis is older than 8 */
  static void require(ClassLoader classLoader) {
    if (ClassUtils.isPresent(JEDIS_8_CLASS, classLoader)) {
      return;
    }
    throw new ConfigException(TollgateConfigMapper.ROOT + ".redis", "needs Jedis 8 (redis.clients:jedis 8.0.2 or later), "
        + "but the class path has jedis " + versionOnClassPath(classLoader) + ": Spring Boot's dependency "
        + "management pins an older line. Set the property jedis.version to 8.0.2 (with "
        + "spring-boot-starter-parent), or manage redis.clients:jedis 8.0.2 ahead of Boot's BOM");
  }

  private static String versionOnClassPath(ClassLoader classLoader) {
    try (InputStream in = classLoader.getResourceAsStream("META-INF/maven/redis.clients/jedis/pom.properties")) {
      if (in == null) {
        return "of an unknown version";
      }
      Properties properties = new Properties();
      properties.load(in);
      return properties.getProperty("version", "of an unknown version");
    } catch (IOException e) {
      return "of an unknown version";
    }
  }
}
