package io.tollgate.limiter.internal;

import io.tollgate.limiter.Limit;
import io.tollgate.limiter.Limits;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The limits' part of a step of {@code lua/limiter.lua} ({@link RunArgs}), packed as the script's
 * {@code struct.unpack} reads it: the count, then per limit its state field (zero-terminated), its
 * kind (bit 0 tokens, bit 1 sliding window), capacity, window ticks and tick, integers as 8 bytes
 * little-endian. A provider's limits are the same on every call, so each set is encoded once and
 * kept; at most {@value #MAX_KEPT} sets are kept, any further one is encoded on each call.
 */
public final class LimitArgs {

  static final int MAX_KEPT = 1024;
  private static final Map<Limits, byte[]> KEPT = new ConcurrentHashMap<>();

  private LimitArgs() {}

  /** The packed limits of {@code limits}: an array the caller must not change. */
  public static byte[] of(Limits limits) {
    byte[] packed = KEPT.get(limits);
    if (packed == null) {
      packed = encode(limits);
      if (KEPT.size() < MAX_KEPT) {
        KEPT.putIfAbsent(limits, packed);
      }
    }
    return packed;
  }

  private static byte[] encode(Limits limits) {
    List<Limit> all = limits.all();
    ByteArrayOutputStream out = new ByteArrayOutputStream(8 + all.size() * 40);
    out.writeBytes(int64(all.size()));
    for (Limit limit : all) {
      out.writeBytes(limit.stateField().getBytes(StandardCharsets.UTF_8));
      out.write(0);
      out.write(kind(limit));
      out.writeBytes(int64(limit.capacity()));
      out.writeBytes(int64(limit.windowTicks()));
      out.writeBytes(int64(limit.tickMicros()));
      out.writeBytes(int64(limit.keep()));
    }
    return out.toByteArray();
  }

  /**
   * Bits 0-1 the dimension (0 requests, 1 tokens, 2 spend), bits 2-3 the algorithm (0 token
   * bucket, 1 sliding window, 2 calendar day, 3 calendar month).
   */
  static int kind(Limit limit) {
    int dimension = limit.dimension().ordinal();
    int algorithm = switch (limit.algorithm()) {
      case TOKEN_BUCKET -> 0;
      case SLIDING_WINDOW -> 1;
      case CALENDAR -> limit.monthly() ? 3 : 2;
    };
    return dimension | algorithm << 2;
  }

  private static byte[] int64(long value) {
    return ByteBuffer.allocate(Long.BYTES).order(ByteOrder.LITTLE_ENDIAN).putLong(value).array();
  }
}
