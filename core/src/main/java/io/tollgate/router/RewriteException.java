package io.tollgate.router;

/**
 * A request that cannot be sent to a fallback: another API family, no API key for the fallback, a
 * request the fallback's API has no equivalent for. The message names both providers and never
 * holds a key.
 */
public final class RewriteException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final String from;
  private final String to;

  public RewriteException(String from, String to, String problem) {
    super("cannot send " + from + "'s request to " + to + ": " + problem);
    this.from = from;
    this.to = to;
  }

  /** The provider the app addressed. */
  public String from() {
    return from;
  }

  /** The fallback that cannot take the request. */
  public String to() {
    return to;
  }
}
