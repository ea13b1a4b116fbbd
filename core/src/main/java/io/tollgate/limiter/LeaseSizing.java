package io.tollgate.limiter;

/**
 * How much a JVM asks for when it takes a lease. With {@code size: auto}: the demand it saw since
 * its last lease, brought to one lease TTL, and never more than one TTL of refill of the fastest
 * limit in each dimension, so that a lease lost with its JVM costs the limit at most one TTL of
 * refill. With a fixed size: that many calls' worth, at the tokens per call seen. Either way the
 * shared bucket then scales the ask down to what it can spare ({@code lua/limiter.lua}).
 */
final class LeaseSizing {

  /**
   * Demand is measured over at least this fraction of a TTL: a lease grows at most 16-fold from one
   * to the next, and a lone first call asks for a little, not for a whole TTL of refill.
   */
  static final long MAX_GROWTH = 16;

  /** Requests and tokens wanted on top of the call that takes the lease. */
  record Want(long requests, long tokens) {
    static final Want NOTHING = new Want(0, 0);
  }

  private LeaseSizing() {}

  /**
   * @param askedRequests requests asked of this subject in this JVM since the last lease (this call
   *     included), admitted or not
   * @param askedTokens tokens asked likewise
   * @param elapsedNanos time since the last lease was asked for
   */
  static Want want(LeasePolicy policy, Limits limits, long askedRequests, long askedTokens,
      long elapsedNanos) {
    long ttlNanos = policy.ttl().toNanos();
    long requestCap = refillOver(limits, Dimension.REQUESTS, ttlNanos);
    long tokenCap = refillOver(limits, Dimension.TOKENS, ttlNanos);
    double scale;
    if (policy.calls().isPresent() && askedRequests > 0) {
      // a size the configuration chose: what a killed JVM loses is at most one such lease
      scale = (double) policy.calls().getAsLong() / askedRequests;
    } else {
      scale = (double) ttlNanos / Math.max(elapsedNanos, ttlNanos / MAX_GROWTH);
      if (requestCap >= 0 && askedRequests > 0) {
        scale = Math.min(scale, (double) requestCap / askedRequests);
      }
      if (tokenCap >= 0 && askedTokens > 0) {
        scale = Math.min(scale, (double) tokenCap / askedTokens);
      }
    }
    if (askedRequests > 0 && askedRequests * scale < 1) {
      return Want.NOTHING; // less than one call's worth would serve nothing
    }
    long requests = requestCap < 0 ? 0 : (long) Math.floor(askedRequests * scale);
    long tokens = tokenCap < 0 ? 0 : (long) Math.floor(askedTokens * scale);
    return requests == 0 && tokens == 0 ? Want.NOTHING : new Want(requests, tokens);
  }

  /**
   * What the fastest-refilling limit of {@code dimension} refills in {@code nanos}, or -1 when no
   * limit counts that dimension.
   */
  static long refillOver(Limits limits, Dimension dimension, long nanos) {
    long most = -1;
    for (Limit limit : limits.all()) {
      if (limit.dimension() == dimension) {
        double refill = (double) limit.capacity() * nanos / limit.window().toNanos();
        most = Math.max(most, (long) Math.floor(refill));
      }
    }
    return most;
  }
}
