package io.tollgate.gate;

import java.io.IOException;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * What a front end holds of an inbound request's body, for its estimate: the whole body, the start
 * of a larger one, or none read (not JSON, or no body): that one is estimated as
 * {@code tokens.default-max-output} + {@link InboundRequest#UNREAD_PROMPT_TOKENS}.
 */
public final class InboundBody {

  private static final byte[] NONE = new byte[0];
  private static final InboundBody UNREAD = new InboundBody(null, false, () -> 0, true);

  private final byte[] held;
  private final boolean whole;
  private final LongSupplier knownLength;
  private final boolean lengthDeclared;

  private InboundBody(byte[] held, boolean whole, LongSupplier knownLength, boolean lengthDeclared) {
    this.held = held;
    this.whole = whole;
    this.knownLength = knownLength;
    this.lengthDeclared = lengthDeclared;
  }

  /** A body the front end does not read. */
  public static InboundBody unread() {
    return UNREAD;
  }

  /** The whole body. */
  public static InboundBody whole(byte[] body) {
    return new InboundBody(Objects.requireNonNull(body, "body"), true, () -> body.length, true);
  }

  /**
   * The first bytes of a larger body, which streams to the app past them.
   *
   * @param knownLength the body's length as far as it is known when asked: the declared one,
   *     else the bytes held and those the app has read of the rest
   * @param lengthDeclared false for a body of undeclared length (chunked): a response without usage
   *     is then settled at the estimate of the body as far as the app read it
   */
  public static InboundBody prefix(byte[] held, LongSupplier knownLength, boolean lengthDeclared) {
    return new InboundBody(Objects.requireNonNull(held, "held"), false,
        Objects.requireNonNull(knownLength, "knownLength"), lengthDeclared);
  }

  /** False for {@link #unread()}. */
  public boolean isRead() {
    return held != null;
  }

  /** True when {@link #held()} is the whole body. */
  public boolean isWhole() {
    return whole;
  }

  /** The bytes held, not copied: the gate only reads them. */
  public byte[] held() {
    return held == null ? NONE : held;
  }

  /** The body's length as far as it is known now. */
  public long knownLength() {
    return knownLength.getAsLong();
  }

  public boolean lengthDeclared() {
    return lengthDeclared;
  }

  /** Reads the body when the gate asks for it: only a tenant with a token limit needs it. */
  @FunctionalInterface
  public interface Reader {
    /** @throws IOException when the client fails while sending it */
    InboundBody read() throws IOException;
  }
}
