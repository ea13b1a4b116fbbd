package io.tollgate.agent.instrumentation;

import io.tollgate.agent.apache4.ApacheHttpClient4InstrumentationModule;
import io.tollgate.agent.apache5.ApacheHttpClient5InstrumentationModule;
import io.tollgate.agent.jdkhttp.JdkHttpInstrumentationModule;
import io.tollgate.agent.okhttp.OkHttpInstrumentationModule;
import java.util.List;
import java.util.stream.Collectors;

/** Every client library the agent instruments. Adding one is one line here. */
public final class InstrumentationModules {

  private static final List<InstrumentationModule> ALL = List.of(
      new OkHttpInstrumentationModule(),
      new JdkHttpInstrumentationModule(),
      new ApacheHttpClient4InstrumentationModule(),
      new ApacheHttpClient5InstrumentationModule());

  private InstrumentationModules() {}

  public static List<InstrumentationModule> all() {
    return ALL;
  }

  /** The modules' names, for the start-up line. */
  public static String names() {
    return ALL.stream().map(InstrumentationModule::name).collect(Collectors.joining(", ", "[", "]"));
  }
}
