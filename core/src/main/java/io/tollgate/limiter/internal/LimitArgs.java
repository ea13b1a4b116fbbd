package io.tollgate.limiter.internal;

import io.tollgate.limiter.Algorithm;
import io.tollgate.limiter.Dimension;
import io.tollgate.limiter.Limit;
import io.tollgate.limiter.Limits;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The part of {@code lua/limiter.lua}'s arguments that describes the limits: their count, then six
 * fields per limit (state field, dimension, algorithm, capacity, window ticks, tick). A provider's
 * limits are the same on every call, so each set is encoded once and kept; at most {@value
 * #MAX_KEPT} sets are kept, any further one is encoded on each call.
 */
public final class LimitArgs {

  static final int MAX_KEPT = 1024;
  private static final Map<Limits, List<byte[]>> KEPT = new ConcurrentHashMap<>();

  private LimitArgs() {}

  /** The encoded arguments of {@code limits}: a list the caller must not change. */
  public static List<byte[]> of(Limits limits) {
    List<byte[]> args = KEPT.get(limits);
    if (args == null) {
      args = encode(limits);
      if (KEPT.size() < MAX_KEPT) {
        KEPT.putIfAbsent(limits, args);
      }
    }
    return args;
  }

  /** A number as the script reads it: its decimal digits. */
  public static byte[] number(long value) {
    return Long.toString(value).getBytes(StandardCharsets.US_ASCII);
  }

  private static List<byte[]> encode(Limits limits) {
    List<Limit> all = limits.all();
    List<byte[]> args = new ArrayList<>(1 + all.size() * 6);
    args.add(number(all.size()));
    for (Limit limit : all) {
      args.add(limit.stateField().getBytes(StandardCharsets.UTF_8));
      args.add(number(limit.dimension() == Dimension.REQUESTS ? 0 : 1));
      args.add(number(limit.algorithm() == Algorithm.TOKEN_BUCKET ? 0 : 1));
      args.add(number(limit.capacity()));
      args.add(number(limit.windowTicks()));
      args.add(number(limit.tickMicros()));
    }
    return Collections.unmodifiableList(args);
  }
}
