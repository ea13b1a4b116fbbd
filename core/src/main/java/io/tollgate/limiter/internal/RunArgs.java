package io.tollgate.limiter.internal;

import io.tollgate.limiter.Limits;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The one argument of a step of {@code lua/limiter.lua}, packed as the script's {@code
 * struct.unpack} reads it: the op, eight integers (8 bytes little-endian each), then the limits
 * ({@link LimitArgs}). Packed, because Redis turns every argument of a script into a Lua string,
 * and numbers parsed from text cost it more than unpacked ones.
 */
public final class RunArgs {

  static final byte RESERVE = 0;
  static final byte LEASE = 1;
  static final byte ADJUST = 2;
  static final byte LOWER = 3;
  private static final int NUMBERS = 8;
  /** Where spend goes among the numbers: last, after the op's own. */
  private static final int SPEND = 7;

  private RunArgs() {}

  /** Takes {@code requests} and {@code tokens} from every limit, or nothing. */
  public static byte[] reserve(Limits limits, long requests, long tokens) {
    return reserve(limits, requests, tokens, 0);
  }

  /** Takes {@code requests}, {@code tokens} and {@code spend} from every limit, or nothing. */
  public static byte[] reserve(Limits limits, long requests, long tokens, long spend) {
    return withSpend(pack(RESERVE, limits, requests, tokens), spend);
  }

  /** Adds {@code requests} and {@code tokens} (signed) taken at {@code takenAtMicros}. */
  public static byte[] adjust(Limits limits, long requests, long tokens, long takenAtMicros) {
    return adjust(limits, requests, tokens, 0, takenAtMicros);
  }

  /** Adds {@code requests}, {@code tokens} and {@code spend} (signed) taken at {@code takenAtMicros}. */
  public static byte[] adjust(Limits limits, long requests, long tokens, long spend,
      long takenAtMicros) {
    return withSpend(pack(ADJUST, limits, requests, tokens, takenAtMicros), spend);
  }

  private static byte[] withSpend(byte[] run, long spend) {
    if (spend != 0) {
      ByteBuffer.wrap(run).order(ByteOrder.LITTLE_ENDIAN).putLong(1 + SPEND * Long.BYTES, spend);
    }
    return run;
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
