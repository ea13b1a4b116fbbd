package io.tollgate.agent.instrumentation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tollgate.agent.InternalFailures;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Each kind of hook woven into real class files ({@link Woven}), which are then defined, verified
 * by the JVM and run: what the hooks see, what the methods return or throw, and that a failing
 * hook leaves the method running as it was.
 */
class HookWeaverTest {

  private static final List<String> SEEN = WovenHooks.SEEN;
  private static final String HOOKS = WovenHooks.class.getName();

  @BeforeEach
  void clear() {
    SEEN.clear();
    WovenHooks.nextAnswer = null;
  }

  @Test
  void aNullAnswerLetsTheMethodRunWithItsOwnLoopsAndHandlers() throws Exception {
    Woven.Calls target = (Woven.Calls) weave(Woven.Target.class,
        point(MethodFilter.named("join", 2), HookPoint.Where.ANSWER, Passed.NOTHING, "answer"))
        .getConstructor().newInstance();

    assertThat(target.join("a", List.of("b", "c"))).isEqualTo("a:b,c");
    assertThat(SEEN).containsExactly("answer a [b, c]");
  }

  @Test
  void anAnswerReplacesTheMethodAndAThrowableAnswerIsThrown() throws Exception {
    Woven.Calls target = (Woven.Calls) weave(Woven.Target.class,
        point(MethodFilter.named("join", 2), HookPoint.Where.ANSWER, Passed.NOTHING, "answer"))
        .getConstructor().newInstance();

    WovenHooks.nextAnswer = "answered";
    assertThat(target.join("a", List.of())).isEqualTo("answered");
    WovenHooks.nextAnswer = new IOException("the app's own exception");
    assertThatThrownBy(() -> target.join("a", List.of())).isInstanceOf(IOException.class)
        .hasMessage("the app's own exception");
    WovenHooks.nextAnswer = 42;
    assertThatThrownBy(() -> target.join("a", List.of()))
        .as("an answer the method cannot return fails as a cast would").isInstanceOf(ClassCastException.class);
    assertThat(SEEN).doesNotContain("joined");
  }

  @Test
  void aHookThatThrowsIsCountedAndTheMethodRunsUnchanged() throws Exception {
    long before = InternalFailures.count("advice");
    Woven.Calls target = (Woven.Calls) weave(Woven.Target.class,
        point(MethodFilter.named("join", 2), HookPoint.Where.ANSWER, Passed.NOTHING, "answer"),
        point(MethodFilter.named("count", 3), HookPoint.Where.ENTER, Passed.THIS, "failingEnter"))
        .getConstructor().newInstance();

    WovenHooks.nextAnswer = new StackOverflowError("thrown by the hook, not answered");
    assertThat(target.join("x", List.of("y"))).isEqualTo("x:y");
    assertThat(target.count(2L, 1.5, "z")).isEqualTo(4);
    assertThat(InternalFailures.count("advice")).isEqualTo(before + 2);
  }

  @Test
  void enterHooksSeeTheInstanceOrTheFirstArgumentBeforeTheBodyEvenInAConstructor()
      throws Exception {
    Class<?> built = weave(Woven.Built.class,
        point(MethodFilter.constructorsTaking(List.class.getName()), HookPoint.Where.ENTER,
            Passed.FIRST_ARGUMENT, "enter"),
        point(MethodFilter.named("count", 3), HookPoint.Where.ENTER, Passed.THIS, "enter"));

    Object instance = built.getConstructor(List.class).newInstance(List.of("p"));
    built.getConstructor().newInstance();

    assertThat(SEEN).as("Built() runs Built(List) after it")
        .containsExactly("enter [p]", "body [p]", "enter []", "body []");
    Woven.Calls target = (Woven.Calls) weave(Woven.Target.class,
        point(MethodFilter.named("count", 3), HookPoint.Where.ENTER, Passed.THIS, "enter"))
        .getConstructor().newInstance();
    SEEN.clear();
    assertThat(target.count(2L, 1.5, "z")).as("a long and a double among the arguments").isEqualTo(4);
    assertThat(SEEN).containsExactly("enter target");
    assertThat(instance.toString()).isEqualTo("built [p]");
  }

  @Test
  void returnHooksRunBeforeEachReturnOfEveryConstructorWithTheInstanceInitialised()
      throws Exception {
    Class<?> built = weave(Woven.Built.class,
        point(MethodFilter.constructors(), HookPoint.Where.RETURN, Passed.THIS, "returning"));

    built.getConstructor(List.class).newInstance(List.of());
    built.getConstructor(List.class).newInstance(List.of("q"));

    assertThat(SEEN).containsExactly("body []", "return built []", "body [q]", "return built [q]");
  }

  @Test
  void exitHooksRunOnceWhetherTheMethodReturnsCatchesItsOwnOrThrows() throws Exception {
    Woven.Calls target = (Woven.Calls) weave(Woven.Target.class,
        point(MethodFilter.named("risky", 1), HookPoint.Where.ENTER, Passed.NOTHING, "enterWithNothing"),
        point(MethodFilter.named("risky", 1), HookPoint.Where.EXIT, Passed.NOTHING, "exit"))
        .getConstructor().newInstance();

    assertThat(target.risky(0)).isEqualTo("plain");
    assertThat(target.risky(1)).isEqualTo("caught");
    assertThatThrownBy(() -> target.risky(2)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("thrown out");

    assertThat(SEEN).containsExactly("enter", "exit", "enter", "exit", "enter", "exit");
  }

  @Test
  void methodsNotMatchedAndHooksThatCannotFitAreLeftAlone() throws Exception {
    Woven.Calls target = (Woven.Calls) weave(Woven.Target.class,
        point(MethodFilter.named("join", 2).andPublic(), HookPoint.Where.ANSWER, Passed.NOTHING,
            "answer"),
        // count takes primitives: no answer can be passed them
        point(MethodFilter.named("count", 3), HookPoint.Where.ANSWER, Passed.NOTHING, "answer"))
        .getConstructor().newInstance();

    assertThat(target.count(1L, 1.0, "a")).isEqualTo(3);
    assertThat(target.join("a", List.of())).isEqualTo("a:");
    assertThat(SEEN).containsExactly("answer a []");
  }

  private static HookPoint point(MethodFilter methods, HookPoint.Where where, Passed passed,
      String hook) {
    return new HookPoint(methods, where, passed, Hook.method(HOOKS, hook));
  }

  /** {@code type}'s class file with {@code points} woven in, defined in a loader of its own. */
  private static Class<?> weave(Class<?> type, HookPoint... points)
      throws IOException, ClassNotFoundException {
    byte[] classFile;
    try (InputStream in = HookWeaverTest.class.getResourceAsStream(
        "/" + type.getName().replace('.', '/') + ".class")) {
      classFile = in.readAllBytes();
    }
    byte[] woven = HookWeaver.weave(classFile, List.of(points));
    return new WovenClassLoader(type.getName(), woven).loadClass(type.getName());
  }
}
