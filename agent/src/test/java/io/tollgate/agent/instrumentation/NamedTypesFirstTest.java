package io.tollgate.agent.instrumentation;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.agent.builder.ResettableClassFileTransformer;
import net.bytebuddy.matcher.ElementMatchers;
import net.bytebuddy.utility.JavaModule;
import org.junit.jupiter.api.Test;

/**
 * Only the named types reach ByteBuddy's transformer, by either of the JVM's two entry points; a
 * class without a name (a hidden class) passes as any other; once weaving has stopped, none does.
 */
class NamedTypesFirstTest {

  static final class Named {}

  static final class Other {}

  private final List<String> seenByByteBuddy = new CopyOnWriteArrayList<>();

  @Test
  void onlyTheNamedTypesReachByteBuddy() throws Exception {
    NamedTypesFirst transformer = new NamedTypesFirst(byteBuddyForEveryType(),
        Set.of(Named.class.getName()));
    ClassLoader loader = getClass().getClassLoader();

    byte[] other = transformer.transform(loader, internalName(Other.class), null, null,
        classFile(Other.class));
    byte[] otherInModule = transformer.transform(Other.class.getModule(), loader,
        internalName(Other.class), null, null, classFile(Other.class));
    byte[] hidden = transformer.transform(loader, null, null, null, classFile(Other.class));
    transformer.transform(loader, internalName(Named.class), null, null, classFile(Named.class));
    transformer.transform(Named.class.getModule(), loader, internalName(Named.class), null, null,
        classFile(Named.class));

    assertThat(other).isNull();
    assertThat(otherInModule).isNull();
    assertThat(hidden).isNull();
    assertThat(seenByByteBuddy).containsExactly(Named.class.getName(), Named.class.getName());
  }

  @Test
  void afterStopWeavingNoTypeIsWoven() throws Exception {
    NamedTypesFirst transformer = new NamedTypesFirst(byteBuddyForEveryType(),
        Set.of(Named.class.getName()));
    ClassLoader loader = getClass().getClassLoader();
    byte[] before = transformer.transform(loader, internalName(Named.class), null, null,
        classFile(Named.class));

    transformer.stopWeaving();
    byte[] after = transformer.transform(loader, internalName(Named.class), null, null,
        classFile(Named.class));

    assertThat(before).isNotNull();
    assertThat(after).isNull();
    assertThat(seenByByteBuddy).containsExactly(Named.class.getName());
  }

  /** A ByteBuddy transformer that would take every type, recording each it is handed. */
  private ResettableClassFileTransformer byteBuddyForEveryType() {
    // what premain's installOn hands the agent's decorator: ByteBuddy's resettable transformer
    return (ResettableClassFileTransformer) new AgentBuilder.Default()
        .with(new AgentBuilder.Listener.Adapter() {
          @Override
          public void onDiscovery(String typeName, ClassLoader classLoader, JavaModule module,
              boolean loaded) {
            seenByByteBuddy.add(typeName);
          }
        })
        .type(ElementMatchers.any())
        .transform((builder, type, classLoader, module, domain) -> builder)
        .makeRaw();
  }

  private static String internalName(Class<?> type) {
    return type.getName().replace('.', '/');
  }

  private static byte[] classFile(Class<?> type) throws IOException {
    String name = type.getName();
    try (InputStream in = type.getResourceAsStream(
        name.substring(name.lastIndexOf('.') + 1) + ".class")) {
      return in.readAllBytes();
    }
  }
}
