package io.tollgate.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Redis stays behind one port: the core's other packages, and what any package shows its users,
 * name no type of the Redis client library.
 */
class RedisPortTest {

  private static final Path SOURCES = Path.of("src/main/java");
  private static final Path CLASSES = Path.of("target/classes");
  private static final String JEDIS = "redis.clients.";

  @Test
  void onlyTheRedisPackageImportsJedis() throws IOException {
    List<String> importing = new ArrayList<>();
    try (Stream<Path> files = Files.walk(SOURCES)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
        if (Files.readString(file, StandardCharsets.UTF_8).contains("import " + JEDIS)) {
          importing.add(SOURCES.relativize(file.getParent()).toString().replace('/', '.'));
        }
      }
    }
    assertThat(importing).isNotEmpty().containsOnly("io.tollgate.redis");
  }

  @Test
  void noPublicSignatureOfTheCoreNamesAJedisType() throws Exception {
    List<String> leaks = new ArrayList<>();
    for (Class<?> type : publicClasses()) {
      List<String> signatures = new ArrayList<>();
      for (Method method : type.getDeclaredMethods()) {
        if (visible(method.getModifiers())) {
          signatures.add(method.toGenericString());
        }
      }
      for (Constructor<?> constructor : type.getDeclaredConstructors()) {
        if (visible(constructor.getModifiers())) {
          signatures.add(constructor.toGenericString());
        }
      }
      for (Field field : type.getDeclaredFields()) {
        if (visible(field.getModifiers())) {
          signatures.add(field.toGenericString());
        }
      }
      signatures.add(String.valueOf(type.getGenericSuperclass()));
      for (Type implemented : type.getGenericInterfaces()) {
        signatures.add(implemented.getTypeName());
      }
      signatures.stream().filter(signature -> signature.contains(JEDIS)).forEach(leaks::add);
    }
    assertThat(leaks).isEmpty();
  }

  private static List<Class<?>> publicClasses() throws IOException, ClassNotFoundException {
    List<Class<?>> types = new ArrayList<>();
    ClassLoader loader = RedisPortTest.class.getClassLoader();
    try (Stream<Path> files = Files.walk(CLASSES)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".class")).toList()) {
        String name = CLASSES.relativize(file).toString().replace('/', '.')
            .replaceAll("\\.class$", "");
        Class<?> type = Class.forName(name, false, loader);
        if (Modifier.isPublic(type.getModifiers())) {
          types.add(type);
        }
      }
    }
    assertThat(types).contains(RedisConnection.class);
    return types;
  }

  private static boolean visible(int modifiers) {
    return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers);
  }
}
