package io.tollgate.llm;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Model prices, and what a call costs at them.
 *
 * <p>The bundled table ({@code io/tollgate/llm/prices.json}, described in docs/prices.md) holds the
 * providers' list prices for well-known models; {@code prices:} in the configuration replaces or
 * adds entries. A model is found by its exact name, else by the longest name in the table that it
 * starts with followed by {@code -}, {@code @} or {@code :}, so that a dated snapshot or a cloud's
 * suffixed name gets its family's price. Names are compared without regard to case.
 *
 * <p>A call costs whole micro-dollars (10<sup>-6</sup> USD), rounded up so that a budget errs toward
 * stopping, and at most {@link #MAX_MICRO_USD}.
 */
public final class Prices {

  /**
   * The most a call is taken to cost, in micro-dollars: as {@link TokenEstimate#MAX_TOKENS} is for
   * tokens, more than any limit can hold, so a call costing it never fits a budget, and a few such
   * figures add up without overflow.
   */
  public static final long MAX_MICRO_USD = 1L << 50;

  private static final long PICO_PER_MICRO = 1_000_000;
  private static final String RESOURCE = "prices.json";

  private final LocalDate asOf;
  private final List<String> sources;
  /** Lower-case names, longest first: the first that matches a model is its exact or longest prefix. */
  private final String[] names;
  /** The price of names[i], found: a lookup allocates nothing. */
  private final List<Optional<Price>> found;
  private final Map<String, Price> byName;

  private Prices(LocalDate asOf, List<String> sources, Map<String, Price> byName) {
    this.asOf = asOf;
    this.sources = List.copyOf(sources);
    this.byName = Collections.unmodifiableMap(new TreeMap<>(byName));
    this.names = byName.keySet().stream()
        .sorted(Comparator.comparingInt(String::length).reversed().thenComparing(Comparator.naturalOrder()))
        .toArray(String[]::new);
    List<Optional<Price>> longestFirst = new ArrayList<>(names.length);
    for (String name : names) {
      longestFirst.add(Optional.of(byName.get(name)));
    }
    this.found = List.copyOf(longestFirst);
  }

  /**
   * Dollars as whole micro-dollars, exactly.
   *
   * @throws ArithmeticException when {@code usd} is finer than a micro-dollar or beyond a long
   */
  public static long toMicroUsd(BigDecimal usd) {
    return usd.movePointRight(6).longValueExact();
  }

  /** Micro-dollars as dollars, without trailing zeros ({@code 0.0012}). */
  public static BigDecimal toDollars(long microUsd) {
    return BigDecimal.valueOf(microUsd, 6).stripTrailingZeros();
  }

  /** The table bundled with Tollgate, read once. */
  public static Prices bundled() {
    return Bundled.TABLE;
  }

  /**
   * This table with {@code overrides}: each replaces the entry of the same name (without regard to
   * case) or adds one. {@link #asOf()} and {@link #sources()} still describe the bundled figures.
   */
  public Prices withOverrides(Map<String, Price> overrides) {
    Map<String, Price> merged = new LinkedHashMap<>(byName);
    Map<String, String> seen = new LinkedHashMap<>();
    overrides.forEach((name, price) -> {
      Objects.requireNonNull(price, "price");
      String key = key(name);
      String earlier = seen.put(key, name);
      if (earlier != null) {
        throw new IllegalArgumentException("prices names " + key + " twice (" + earlier + ", " + name
            + "); names are compared without regard to case");
      }
      merged.put(key, price);
    });
    return new Prices(asOf, sources, merged);
  }

  /**
   * The price of {@code model}: its exact name's, else that of the longest name in the table it
   * starts with followed by {@code -}, {@code @} or {@code :} ({@code gpt-4o-mini-2024-07-18} is
   * priced as {@code gpt-4o-mini}, never as {@code gpt-4o}); empty when none matches.
   */
  public Optional<Price> of(String model) {
    int i = indexOf(model);
    return i < 0 ? Optional.empty() : found.get(i);
  }

  /**
   * The table's name that prices {@code model} (lower case: {@code gpt-4o} for {@code
   * gpt-4o-2024-08-06}), a bounded set of names fit for a metric's attribute; empty when none does.
   */
  public Optional<String> nameOf(String model) {
    int i = indexOf(model);
    return i < 0 ? Optional.empty() : Optional.of(names[i]);
  }

  private int indexOf(String model) {
    Objects.requireNonNull(model, "model");
    for (int i = 0; i < names.length; i++) {
      String name = names[i];
      int length = name.length();
      if (model.length() == length ? model.equalsIgnoreCase(name)
          : model.length() > length && isFamilySeparator(model.charAt(length))
              && model.regionMatches(true, 0, name, 0, length)) {
        return i;
      }
    }
    return -1;
  }

  /** Every entry, by lower-case name in alphabetical order. */
  public Map<String, Price> models() {
    return byName;
  }

  /** The day the bundled figures were last checked against their sources. */
  public LocalDate asOf() {
    return asOf;
  }

  /** Where the bundled figures come from. */
  public List<String> sources() {
    return sources;
  }

  /**
   * What a call that used {@code usage} costs at {@code price}, in micro-dollars rounded up: input
   * neither read from nor written to the cache at the input price, cache reads at the cached-input
   * price, cache writes at the cache-write price, output at the output price. Cache figures that
   * add up to more than the input leave no uncached input rather than a negative one.
   */
  public static long microUsd(Price price, Usage usage) {
    long cacheRead = usage.cacheReadTokens();
    long cacheWrite = usage.cacheWriteTokens();
    long uncached = Math.max(0, usage.inputTokens() - cacheRead - cacheWrite);
    long output = usage.outputTokens();
    long whole = wholeMicroUsd(uncached, price.inputPicoUsd())
        + wholeMicroUsd(cacheRead, price.cachedInputPicoUsd())
        + wholeMicroUsd(cacheWrite, price.cacheWritePicoUsd())
        + wholeMicroUsd(output, price.outputPicoUsd());
    long picoLeft = picoUsdLeft(uncached, price.inputPicoUsd())
        + picoUsdLeft(cacheRead, price.cachedInputPicoUsd())
        + picoUsdLeft(cacheWrite, price.cacheWritePicoUsd())
        + picoUsdLeft(output, price.outputPicoUsd());
    return roundedUp(whole, picoLeft);
  }

  /**
   * What a reserve takes before the call: the whole prompt at the input price (whether the cache
   * will serve part of it is not known yet) and the output cap at the output price, in
   * micro-dollars rounded up. Token counts are clamped to 0..{@link TokenEstimate#MAX_TOKENS}.
   */
  public static long microUsd(Price price, long promptTokens, long maxOutputTokens) {
    long prompt = TokenEstimate.clamp(promptTokens);
    long output = TokenEstimate.clamp(maxOutputTokens);
    return roundedUp(
        wholeMicroUsd(prompt, price.inputPicoUsd()) + wholeMicroUsd(output, price.outputPicoUsd()),
        picoUsdLeft(prompt, price.inputPicoUsd()) + picoUsdLeft(output, price.outputPicoUsd()));
  }

  /*
   * tokens × picoUsd can pass 2^63 (tokens up to 2^50, a price up to 10^12), so it is split on
   * 10^6: with tokens = tm·10^6 + tr and picoUsd = pm·10^6 + pr, tokens × picoUsd / 10^6 is
   * tokens·pm + tm·pr + tr·pr / 10^6, each term within a long. wholeMicroUsd is its floor (or
   * MAX_MICRO_USD once tokens·pm alone passes it); picoUsdLeft is the remainder, tr·pr mod 10^6.
   */

  private static long wholeMicroUsd(long tokens, long picoUsd) {
    long pm = picoUsd / PICO_PER_MICRO;
    long pr = picoUsd % PICO_PER_MICRO;
    if (pm > 0 && tokens > MAX_MICRO_USD / pm) {
      return MAX_MICRO_USD;
    }
    long tm = tokens / PICO_PER_MICRO;
    long tr = tokens % PICO_PER_MICRO;
    return tokens * pm + tm * pr + tr * pr / PICO_PER_MICRO;
  }

  private static long picoUsdLeft(long tokens, long picoUsd) {
    return (tokens % PICO_PER_MICRO) * (picoUsd % PICO_PER_MICRO) % PICO_PER_MICRO;
  }

  private static long roundedUp(long wholeMicroUsd, long picoUsdLeft) {
    return Math.min(MAX_MICRO_USD, wholeMicroUsd + (picoUsdLeft + PICO_PER_MICRO - 1) / PICO_PER_MICRO);
  }

  private static boolean isFamilySeparator(char c) {
    return c == '-' || c == '@' || c == ':';
  }

  private static String key(String name) {
    Objects.requireNonNull(name, "name");
    String key = name.trim().toLowerCase(Locale.ROOT);
    if (key.isEmpty()) {
      throw new IllegalArgumentException("a model name must not be blank");
    }
    return key;
  }

  /** Loaded on first use only: an app that sets no spend limit never reads the table. */
  private static final class Bundled {
    static final Prices TABLE = load();

    private static Prices load() {
      try (InputStream in = Prices.class.getResourceAsStream(RESOURCE)) {
        if (in == null) {
          throw new IllegalStateException("io/tollgate/llm/" + RESOURCE + " is missing from the class path");
        }
        return read(in);
      } catch (IOException e) {
        throw new UncheckedIOException("io/tollgate/llm/" + RESOURCE + " could not be read", e);
      }
    }
  }

  /** {@code {"as-of": "YYYY-MM-DD", "sources": [...], "models": {"name": {"input": 2.50, ...}}}}. */
  static Prices read(InputStream json) throws IOException {
    LocalDate asOf = null;
    List<String> sources = new ArrayList<>();
    Map<String, Price> models = new LinkedHashMap<>();
    try (JsonParser parser = new JsonFactory().createParser(json)) {
      expect(parser, parser.nextToken() == JsonToken.START_OBJECT, "an object");
      while (parser.nextToken() == JsonToken.FIELD_NAME) {
        String field = parser.currentName();
        JsonToken value = parser.nextToken();
        switch (field) {
          case "as-of" -> {
            expect(parser, value == JsonToken.VALUE_STRING, "as-of as YYYY-MM-DD");
            asOf = date(parser.getText());
          }
          case "sources" -> {
            expect(parser, value == JsonToken.START_ARRAY, "sources as a list");
            while (parser.nextToken() == JsonToken.VALUE_STRING) {
              sources.add(parser.getText());
            }
            expect(parser, parser.currentToken() == JsonToken.END_ARRAY, "sources as a list of texts");
          }
          case "models" -> {
            expect(parser, value == JsonToken.START_OBJECT, "models as an object");
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
              String model = parser.currentName();
              Price price = price(parser, model);
              if (models.put(key(model), price) != null) {
                throw new IllegalArgumentException(RESOURCE + " names " + model + " twice");
              }
            }
          }
          default -> throw new IllegalArgumentException(RESOURCE + " has an unknown field " + field);
        }
      }
    }
    if (asOf == null || sources.isEmpty() || models.isEmpty()) {
      throw new IllegalArgumentException(RESOURCE + " needs as-of, sources and models");
    }
    return new Prices(asOf, sources, models);
  }

  private static Price price(JsonParser parser, String model) throws IOException {
    expect(parser, parser.nextToken() == JsonToken.START_OBJECT, "models." + model + " as an object");
    Map<String, Object> fields = new LinkedHashMap<>();
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      String field = parser.currentName();
      JsonToken value = parser.nextToken();
      fields.put(field, switch (value) {
        // the decimal as written: 0.075 stays exactly 0.075
        case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> parser.getDecimalValue();
        case VALUE_STRING -> parser.getText();
        case START_OBJECT, START_ARRAY -> {
          parser.skipChildren();
          yield value == JsonToken.START_OBJECT ? "an object" : "a list";
        }
        default -> parser.getText();
      });
    }
    try {
      return Price.fromFields(fields);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(RESOURCE + " models." + model + "." + e.getMessage(), e);
    }
  }

  private static LocalDate date(String text) {
    try {
      return LocalDate.parse(text);
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(RESOURCE + " as-of must be YYYY-MM-DD, was " + text, e);
    }
  }

  private static void expect(JsonParser parser, boolean holds, String what) {
    if (!holds) {
      throw new IllegalArgumentException(RESOURCE + " must have " + what + " at "
          + parser.currentLocation().getLineNr() + ":" + parser.currentLocation().getColumnNr());
    }
  }
}
