package io.tollgate.limiter.internal;

import java.time.LocalDate;

/**
 * The calendar day or month (UTC) a time falls in, as {@code lua/limiter.lua}'s {@code period}
 * numbers it: days since 1970-01-01, or year × 12 + month − 1.
 *
 * @param index the day's or month's number
 * @param endsAt when the next one begins, µs since the epoch
 */
record CalendarPeriod(long index, long endsAt) {

  private static final long DAY_MICROS = 86_400_000_000L;

  static CalendarPeriod of(long atMicros, boolean monthly) {
    long day = Math.floorDiv(atMicros, DAY_MICROS);
    if (!monthly) {
      return new CalendarPeriod(day, (day + 1) * DAY_MICROS);
    }
    LocalDate date = LocalDate.ofEpochDay(day);
    long next = date.withDayOfMonth(1).plusMonths(1).toEpochDay();
    return new CalendarPeriod(date.getYear() * 12L + date.getMonthValue() - 1, next * DAY_MICROS);
  }
}
