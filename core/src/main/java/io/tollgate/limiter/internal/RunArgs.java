package io.tollgate.limiter.internal;

import io.tollgate.limiter.Limits;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The one argument of a step of {@code lua/limiter.lua}, packed as the script's {@code
 * struct.unpack} reads it: the op, seven integers (8 bytes little-endian each), then the limits
 * ({@link LimitArgs}). Packed, because Redis turns every argument of a script into a Lua string,
 * and numbers parsed from text cost it more than unpacked ones.
 */
public final class RunArgs {

  static final byte RESERVE = 0;
  static final byte LEASE = 1;
  static final byte ADJUST = 2;
  static final byte LOWER = 3;
  private static final int NUMBERS = 7;

  private RunArgs() {}

  /** Takes {@code requests} and {@code tokens} from every limit, or nothing. */
  public static byte[] reserve(Limits limits, long requests, long tokens) {
    return pack(RESERVE, limits, requests, tokens);
  }

  /** Adds {@code requests} and {@code tokens} (signed) taken at {@code takenAtMicros}. */
  public static byte[] adjust(Limits limits, long requests, long tokens, long takenAtMicros) {
    return pack(ADJUST, limits, requests, tokens, takenAtMicros);
  }

  /**
   * Leaves each limit at most {@code requestsRoom} or {@code tokensRoom} of room (by its dimension;
   * -1 leaves that dimension as it is); never raises room.
   */
  public static byte[] lower(Limits limits, long requestsRoom, long tokensRoom) {
    return pack(LOWER, limits, 0, 0, requestsRoom, tokensRoom);
  }

  /**
   * Takes the call's cost and a lease on top of it (at most {@code wantRequests} and {@code
   * wantTokens}), after giving back what an ending lease did not spend.
   */
  public static byte[] lease(Limits limits, long requests, long tokens, long wantRequests,
      long wantTokens, long giveRequests, long giveTokens, long givenAtMicros) {
    return pack(LEASE, limits, requests, tokens, wantRequests, wantTokens, giveRequests,
        giveTokens, givenAtMicros);
  }

  private static byte[] pack(byte op, Limits limits, long... numbers) {
    byte[] packedLimits = LimitArgs.of(limits);
    ByteBuffer run = ByteBuffer.allocate(1 + NUMBERS * Long.BYTES + packedLimits.length)
        .order(ByteOrder.LITTLE_ENDIAN);
    run.put(op);
    for (int i = 0; i < NUMBERS; i++) {
      run.putLong(i < numbers.length ? numbers[i] : 0);
    }
    return run.put(packedLimits).array();
  }
}
