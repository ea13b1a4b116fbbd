package io.tollgate.agent.instrumentation;

import java.util.List;

/**
 * The advice for some types of a client library: which types, by name, and which advice class goes
 * on which of their methods, as the OpenTelemetry Java instrumentation writes it.
 *
 * <pre>{@code
 * public List<String> typeNames() {
 *   return List.of("okhttp3.OkHttpClient$Builder");
 * }
 *
 * public void transform(TypeTransformer transformer) {
 *   transformer.applyAdviceToMethod(isConstructor(), getClass().getName() + "$ConstructorAdvice");
 * }
 * }</pre>
 *
 * <p>An advice class is named, never loaded by the agent: ByteBuddy reads its class file and
 * inlines its methods into the client's, where the helpers it calls are defined ({@link
 * InstrumentationModule#helperClassNames()}). Its methods take and pass {@code Object} only, so the
 * agent never needs the client's types to describe them.
 */
public interface TypeInstrumentation {

  /** The binary names of the types ({@code okhttp3.OkHttpClient$Builder}). */
  List<String> typeNames();

  void transform(TypeTransformer transformer);
}
