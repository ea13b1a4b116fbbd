package io.tollgate.agent.telemetry;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.DoubleCounter;
import io.opentelemetry.api.metrics.DoubleCounterBuilder;
import io.opentelemetry.api.metrics.DoubleGaugeBuilder;
import io.opentelemetry.api.metrics.DoubleHistogram;
import io.opentelemetry.api.metrics.DoubleHistogramBuilder;
import io.opentelemetry.api.metrics.LongCounter;
import io.opentelemetry.api.metrics.LongCounterBuilder;
import io.opentelemetry.api.metrics.LongGaugeBuilder;
import io.opentelemetry.api.metrics.LongHistogramBuilder;
import io.opentelemetry.api.metrics.LongUpDownCounterBuilder;
import io.opentelemetry.api.metrics.Meter;
import io.opentelemetry.api.metrics.MeterProvider;
import io.opentelemetry.api.metrics.ObservableDoubleCounter;
import io.opentelemetry.api.metrics.ObservableDoubleGauge;
import io.opentelemetry.api.metrics.ObservableDoubleMeasurement;
import io.opentelemetry.api.metrics.ObservableLongCounter;
import io.opentelemetry.api.metrics.ObservableLongGauge;
import io.opentelemetry.api.metrics.ObservableLongMeasurement;
import io.opentelemetry.context.Context;
import java.util.List;
import java.util.function.Consumer;

/**
 * A meter of the app's SDK behind the agent's relocated {@link Meter}. Bridged are the instruments
 * Tollgate makes: long counters, double histograms (with bucket advice), asynchronous long and
 * double gauges and asynchronous double counters. The builders keep their settings and make the app's instrument
 * at {@code build}; any other instrument records nothing, as does one the app's API refuses.
 */
final class BridgedMeter implements Meter {

  private static final Meter NOOP = MeterProvider.noop().get("io.tollgate");

  private final AppApi api;
  private final Object app;

  BridgedMeter(AppApi api, Object app) {
    this.api = api;
    this.app = app;
  }

  @Override
  public LongCounterBuilder counterBuilder(String name) {
    return new Counters(name);
  }

  @Override
  public LongUpDownCounterBuilder upDownCounterBuilder(String name) {
    return NOOP.upDownCounterBuilder(name);
  }

  @Override
  public DoubleHistogramBuilder histogramBuilder(String name) {
    return new Histograms(name);
  }

  @Override
  public DoubleGaugeBuilder gaugeBuilder(String name) {
    return new Gauges(name);
  }

  /** The name, description and unit of an instrument to be made. */
  private abstract static class Spec {
    final String name;
    String description = "";
    String unit = "";

    Spec(String name) {
      this.name = name;
    }

    /** The same instrument, asked for with another value type ({@code ofDoubles}, {@code ofLongs}). */
    Spec(Spec from) {
      this(from.name);
      this.description = from.description;
      this.unit = from.unit;
    }
  }

  private interface Make {
    Object run() throws Throwable;
  }

  private static Object make(Make make) {
    try {
      return make.run();
    } catch (Throwable refused) {
      return null;
    }
  }

  private final class Counters extends Spec implements LongCounterBuilder {
    Counters(String name) {
      super(name);
    }

    @Override
    public LongCounterBuilder setDescription(String description) {
      this.description = description;
      return this;
    }

    @Override
    public LongCounterBuilder setUnit(String unit) {
      this.unit = unit;
      return this;
    }

    @Override
    public DoubleCounterBuilder ofDoubles() {
      return new DoubleCounters(this);
    }

    @Override
    public LongCounter build() {
      Object counter = make(() -> api.longCounterBuild.invoke(api.longCounterUnit.invoke(
          api.longCounterDescription.invoke(api.counterBuilder.invoke(app, name), description), unit)));
      if (counter == null) {
        return NOOP.counterBuilder(name).build();
      }
      return new LongCounter() {
        @Override
        public void add(long value) {
          add(value, Attributes.empty());
        }

        @Override
        public void add(long value, Attributes attributes) {
          try {
            api.counterAdd.invoke(counter, value, api.attributes(attributes));
          } catch (Throwable dropped) {
            // the point is lost, the call goes on
          }
        }

        @Override
        public void add(long value, Attributes attributes, Context context) {
          add(value, attributes);
        }
      };
    }

    @Override
    public ObservableLongCounter buildWithCallback(Consumer<ObservableLongMeasurement> callback) {
      return NOOP.counterBuilder(name).buildWithCallback(callback); // Tollgate makes none
    }
  }

  private final class DoubleCounters extends Spec implements DoubleCounterBuilder {
    DoubleCounters(Spec from) {
      super(from);
    }

    @Override
    public DoubleCounterBuilder setDescription(String description) {
      this.description = description;
      return this;
    }

    @Override
    public DoubleCounterBuilder setUnit(String unit) {
      this.unit = unit;
      return this;
    }

    @Override
    public DoubleCounter build() {
      Object counter = make(() -> api.doubleCounterBuild.invoke(api.doubleCounterUnit.invoke(
          api.doubleCounterDescription.invoke(api.longCounterOfDoubles.invoke(
              api.counterBuilder.invoke(app, name)), description), unit)));
      if (counter == null) {
        return NOOP.counterBuilder(name).ofDoubles().build();
      }
      return new DoubleCounter() {
        @Override
        public void add(double value) {
          add(value, Attributes.empty());
        }

        @Override
        public void add(double value, Attributes attributes) {
          try {
            api.doubleCounterAdd.invoke(counter, value, api.attributes(attributes));
          } catch (Throwable dropped) {
            // the point is lost, the call goes on
          }
        }

        @Override
        public void add(double value, Attributes attributes, Context context) {
          add(value, attributes);
        }
      };
    }

    @Override
    public ObservableDoubleCounter buildWithCallback(Consumer<ObservableDoubleMeasurement> callback) {
      Consumer<Object> theirs = measurement -> callback.accept(doubles(measurement));
      Object observer = make(() -> api.doubleCounterCallback.invoke(api.doubleCounterUnit.invoke(
          api.doubleCounterDescription.invoke(api.longCounterOfDoubles.invoke(
              api.counterBuilder.invoke(app, name)), description), unit), theirs));
      return new ObservableDoubleCounter() {
        @Override
        public void close() {
          closeQuietly(observer);
        }
      };
    }
  }

  private final class Histograms extends Spec implements DoubleHistogramBuilder {
    private List<Double> buckets;

    Histograms(String name) {
      super(name);
    }

    @Override
    public DoubleHistogramBuilder setDescription(String description) {
      this.description = description;
      return this;
    }

    @Override
    public DoubleHistogramBuilder setUnit(String unit) {
      this.unit = unit;
      return this;
    }

    @Override
    public DoubleHistogramBuilder setExplicitBucketBoundariesAdvice(List<Double> buckets) {
      this.buckets = List.copyOf(buckets);
      return this;
    }

    @Override
    public LongHistogramBuilder ofLongs() {
      return NOOP.histogramBuilder(name).ofLongs(); // Tollgate makes none
    }

    @Override
    public DoubleHistogram build() {
      Object histogram = make(() -> {
        Object builder = api.histogramUnit.invoke(api.histogramDescription.invoke(
            api.histogramBuilder.invoke(app, name), description), unit);
        if (buckets != null && api.histogramBuckets != null) {
          builder = api.histogramBuckets.invoke(builder, buckets);
        }
        return api.histogramBuild.invoke(builder);
      });
      if (histogram == null) {
        return NOOP.histogramBuilder(name).build();
      }
      return new DoubleHistogram() {
        @Override
        public void record(double value) {
          record(value, Attributes.empty());
        }

        @Override
        public void record(double value, Attributes attributes) {
          try {
            api.histogramRecord.invoke(histogram, value, api.attributes(attributes));
          } catch (Throwable dropped) {
            // the point is lost, the call goes on
          }
        }

        @Override
        public void record(double value, Attributes attributes, Context context) {
          record(value, attributes);
        }
      };
    }
  }

  private final class Gauges extends Spec implements DoubleGaugeBuilder {
    Gauges(String name) {
      super(name);
    }

    @Override
    public DoubleGaugeBuilder setDescription(String description) {
      this.description = description;
      return this;
    }

    @Override
    public DoubleGaugeBuilder setUnit(String unit) {
      this.unit = unit;
      return this;
    }

    @Override
    public LongGaugeBuilder ofLongs() {
      return new LongGauges(this);
    }

    @Override
    public ObservableDoubleGauge buildWithCallback(Consumer<ObservableDoubleMeasurement> callback) {
      Consumer<Object> theirs = measurement -> callback.accept(doubles(measurement));
      Object observer = make(() -> api.doubleGaugeCallback.invoke(api.doubleGaugeUnit.invoke(
          api.doubleGaugeDescription.invoke(api.gaugeBuilder.invoke(app, name), description), unit),
          theirs));
      return new ObservableDoubleGauge() {
        @Override
        public void close() {
          closeQuietly(observer);
        }
      };
    }
  }

  private final class LongGauges extends Spec implements LongGaugeBuilder {
    LongGauges(Spec from) {
      super(from);
    }

    @Override
    public LongGaugeBuilder setDescription(String description) {
      this.description = description;
      return this;
    }

    @Override
    public LongGaugeBuilder setUnit(String unit) {
      this.unit = unit;
      return this;
    }

    @Override
    public ObservableLongGauge buildWithCallback(Consumer<ObservableLongMeasurement> callback) {
      Consumer<Object> theirs = measurement -> callback.accept(longs(measurement));
      Object observer = make(() -> api.longGaugeCallback.invoke(api.longGaugeUnit.invoke(
          api.longGaugeDescription.invoke(api.doubleGaugeOfLongs.invoke(
              api.gaugeBuilder.invoke(app, name)), description), unit), theirs));
      return new ObservableLongGauge() {
        @Override
        public void close() {
          closeQuietly(observer);
        }
      };
    }
  }

  private ObservableLongMeasurement longs(Object measurement) {
    return new ObservableLongMeasurement() {
      @Override
      public void record(long value) {
        record(value, Attributes.empty());
      }

      @Override
      public void record(long value, Attributes attributes) {
        try {
          api.longMeasurementRecord.invoke(measurement, value, api.attributes(attributes));
        } catch (Throwable dropped) {
          // the point is lost
        }
      }
    };
  }

  private ObservableDoubleMeasurement doubles(Object measurement) {
    return new ObservableDoubleMeasurement() {
      @Override
      public void record(double value) {
        record(value, Attributes.empty());
      }

      @Override
      public void record(double value, Attributes attributes) {
        try {
          api.doubleMeasurementRecord.invoke(measurement, value, api.attributes(attributes));
        } catch (Throwable dropped) {
          // the point is lost
        }
      }
    };
  }

  private static void closeQuietly(Object observer) {
    if (observer instanceof AutoCloseable closeable) {
      try {
        closeable.close();
      } catch (Exception ignored) {
        // the app's SDK stops observing either way at its shutdown
      }
    }
  }
}
