package io.tollgate.agent;

import java.util.Locale;
import java.util.Set;

/**
 * What every client's helpers decide alike, without naming a client type: which headers a rebuilt
 * request leaves to its client, and the reason phrases of Tollgate's own answers. (How much of a
 * body is held: {@link BoundedBody}.)
 */
public final class GatedRequests {

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
