package io.tollgate.limiter.internal;

import java.util.Base64;
import java.util.concurrent.ThreadLocalRandom;

/** Reservation ids: 128 random bits, unique across a fleet without coordination. */
public final class ReservationIds {

  private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();

  private ReservationIds() {}

  public static String next() {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    long high = random.nextLong();
    long low = random.nextLong();
    byte[] bytes = new byte[16];
    for (int i = 0; i < 8; i++) {
      bytes[i] = (byte) (high >>> (56 - 8 * i));
      bytes[8 + i] = (byte) (low >>> (56 - 8 * i));
    }
    return ENCODER.encodeToString(bytes);
  }
}
