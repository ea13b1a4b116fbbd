package io.tollgate.agent;

import java.util.Locale;
import java.util.Set;

/**
 * What every client's helpers decide alike, without naming a client type: which bodies are
 * buffered, which headers a rebuilt request leaves to its client, and the reason phrases of
 * Tollgate's own answers.
 */
public final class GatedRequests {

  /**
   * A body announced larger than this (a file or audio upload to the provider's host) is not
   * buffered: the call passes untouched, as a call Tollgate does not limit.
   */
  public static final long MAX_BUFFERED_BODY = 16L * 1024 * 1024;

  /** Set by the client from the target and the body it sends; copied, they would clash. */
  private static final Set<String> CLIENT_MANAGED = Set.of(
      "host", "content-length", "transfer-encoding", "connection");

  private GatedRequests() {}

  /** Whether a header of the plan goes into a request rebuilt for another provider. */
  public static boolean carriedOver(String headerName) {
    return !CLIENT_MANAGED.contains(headerName.toLowerCase(Locale.ROOT));
  }

  /** The reason phrase of the statuses Tollgate answers with. */
  public static String reason(int status) {
    switch (status) {
      case 429:
        return "Too Many Requests";
      case 503:
        return "Service Unavailable";
      case 529:
        return "Overloaded";
      case 500:
        return "Internal Server Error";
      case 502:
        return "Bad Gateway";
      case 504:
        return "Gateway Timeout";
      default:
        return "";
    }
  }
}
