package io.tollgate.config;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Sizes in bytes as the configuration writes them, the way Spring's {@code DataSize} reads them:
 * a whole number of bytes ({@code 1048576}), or a whole number with a unit {@code B}, {@code KB},
 * {@code MB} or {@code GB}, each 1024 times the one before ({@code 512KB}, {@code 1MB}). Units
 * are upper case and follow the number without a space, as in Spring.
 */
public final class ByteSizes {

  private static final Pattern SIZE = Pattern.compile("(\\d+)(B|KB|MB|GB)?");
  static final String EXPECTED = "must be a size in bytes: a whole number, or one with a unit B, KB, MB"
      + " or GB (1048576, 512KB, 1MB)";

  private ByteSizes() {}

  /**
   * Parses {@code text}; the exception's message continues a sentence that starts with the key.
   *
   * @throws IllegalArgumentException when {@code text} is not a size
   */
  public static long parse(String text) {
    Matcher m = SIZE.matcher(text.trim());
    if (!m.matches()) {
      throw new IllegalArgumentException(EXPECTED);
    }
    int shift = switch (m.group(2) == null ? "B" : m.group(2)) {
      case "KB" -> 10;
      case "MB" -> 20;
      case "GB" -> 30;
      default -> 0;
    };
    try {
      long amount = Long.parseLong(m.group(1));
      if (amount > Long.MAX_VALUE >> shift) {
        throw new IllegalArgumentException("is too large a size");
      }
      return amount << shift;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("is too large a size");
    }
  }

  /** {@code bytes} in the largest unit that writes it whole ({@code 1MB}, {@code 1536KB}, {@code 100B}). */
  public static String format(long bytes) {
    String[] units = {"GB", "MB", "KB"};
    for (int i = 0; i < units.length; i++) {
      int shift = 30 - 10 * i;
      if (bytes != 0 && bytes % (1L << shift) == 0) {
        return (bytes >> shift) + units[i];
      }
    }
    return bytes + "B";
  }
}
