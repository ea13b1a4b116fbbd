package io.tollgate.telemetry;

import io.opentelemetry.api.GlobalOpenTelemetry;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;

/**
 * Whether the app or an agent has set {@link GlobalOpenTelemetry}, asked without setting it.
 *
 * <p>{@code GlobalOpenTelemetry.get()} cannot be asked: while nothing is set it installs a no-op
 * (or runs the SDK's autoconfiguration), and the app's own {@code set} then fails. The API has
 * {@code isSet()} since 1.62; the versions Spring Boot 3.5 and 4.0 manage (1.49, 1.55) do not, so
 * there the static field that {@code isSet()} reads is read instead. When neither can be reached,
 * the answer is "not set" and nothing is recorded through the global instance.
 */
public final class GlobalState {

  private static final MethodHandle IS_SET = find();

  private GlobalState() {}

  static boolean isSet() {
    if (IS_SET == null) {
      return false;
    }
    try {
      return (boolean) IS_SET.invokeExact();
    } catch (Throwable unreadable) {
      return false;
    }
  }

  /**
   * How the API copy whose {@code GlobalOpenTelemetry} is {@code global} tells whether it is set,
   * as a {@code ()boolean} handle: the agent asks the app's own (unrelocated) copy the same way.
   */
  public static MethodHandle isSetHandle(Class<?> global) throws ReflectiveOperationException {
    try {
      return MethodHandles.publicLookup().findStatic(global, "isSet",
          MethodType.methodType(boolean.class));
    } catch (NoSuchMethodException olderThan162) {
      return fieldIsSet(global);
    }
  }

  /** The older APIs' way: the private static field {@code isSet()} reads, not null. */
  static MethodHandle fieldIsSet(Class<?> global) throws ReflectiveOperationException {
    Field field = global.getDeclaredField("globalOpenTelemetry");
    field.setAccessible(true);
    MethodHandle get = MethodHandles.lookup().unreflectGetter(field)
        .asType(MethodType.methodType(Object.class));
    MethodHandle notNull = MethodHandles.lookup().findStatic(GlobalState.class, "notNull",
        MethodType.methodType(boolean.class, Object.class));
    return MethodHandles.filterReturnValue(get, notNull);
  }

  private static MethodHandle find() {
    try {
      return isSetHandle(GlobalOpenTelemetry.class);
    } catch (ReflectiveOperationException | RuntimeException unknownLayout) {
      return null;
    }
  }

  private static boolean notNull(Object value) {
    return value != null;
  }
}
