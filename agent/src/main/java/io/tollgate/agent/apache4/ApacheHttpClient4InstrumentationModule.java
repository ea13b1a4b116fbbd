package io.tollgate.agent.apache4;

import io.tollgate.agent.instrumentation.InstrumentationModule;
import io.tollgate.agent.instrumentation.TypeInstrumentation;
import java.util.List;

/** Apache HttpClient 4.5: every execution of the built-in clients goes through the gate. */
public final class ApacheHttpClient4InstrumentationModule implements InstrumentationModule {

  static final String HELPERS = "io.tollgate.agent.apache4.helpers.";

  @Override
  public String name() {
    return "apache-httpclient-4";
  }

  @Override
  public List<TypeInstrumentation> typeInstrumentations() {
    return List.of(new ClassicHttpClient4Instrumentation(), new ResponseClose4Instrumentation(),
        new RequestExecutor4Instrumentation());
  }

  @Override
  public List<String> helperClassNames() {
    return List.of(
        HELPERS + "BufferedEntity",
        HELPERS + "PrefixedEntity",
        HELPERS + "UsageTappingEntity",
        HELPERS + "AnsweredResponse",
        HELPERS + "Classic4Client",
        HELPERS + "Classic4Execution",
        HELPERS + "OriginGuard4");
  }
}
