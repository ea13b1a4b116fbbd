package io.tollgate.limiter;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * A {@link RateLimiter} that hands every operation to another: extend it to decorate a limiter
 * (record, count, fail on purpose) by overriding only what the decoration touches.
 */
public abstract class ForwardingRateLimiter implements RateLimiter {

  private final RateLimiter delegate;

  protected ForwardingRateLimiter(RateLimiter delegate) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
  }

  /** The limiter every operation goes to. */
  protected final RateLimiter delegate() {
    return delegate;
  }

  @Override
  public Decision reserve(Subject subject, Limits limits, long requests, long tokens) {
    return delegate.reserve(subject, limits, requests, tokens);
  }

  @Override
  public boolean settle(Reservation reservation, long actualTokens) {
    return delegate.settle(reservation, actualTokens);
  }

  @Override
  public void settleLater(Reservation reservation, long actualTokens) {
    delegate.settleLater(reservation, actualTokens);
  }

  @Override
  public int settleEach(List<Settlement> settlements) {
    return delegate.settleEach(settlements);
  }

  @Override
  public boolean awaitSettled(Duration timeout) {
    return delegate.awaitSettled(timeout);
  }

  @Override
  public boolean release(Reservation reservation) {
    return delegate.release(reservation);
  }

  @Override
  public void lowerRoom(Subject subject, Limits limits, long requestsRoom, long tokensRoom) {
    delegate.lowerRoom(subject, limits, requestsRoom, tokensRoom);
  }

  /** A call that charges no spend goes through {@link #reserve(Subject, Limits, long, long)}. */
  @Override
  public Decision reserve(Subject subject, Limits limits, long requests, long tokens, long spend) {
    return spend == 0 ? reserve(subject, limits, requests, tokens)
        : delegate.reserve(subject, limits, requests, tokens, spend);
  }

  /** A settle that leaves the spend as reserved goes through {@link #settle(Reservation, long)}. */
  @Override
  public boolean settle(Reservation reservation, long actualTokens, long actualSpend) {
    return actualSpend == reservation.spend() ? settle(reservation, actualTokens)
        : delegate.settle(reservation, actualTokens, actualSpend);
  }

  @Override
  public void settleLater(Reservation reservation, long actualTokens, long actualSpend) {
    if (actualSpend == reservation.spend()) {
      settleLater(reservation, actualTokens);
    } else {
      delegate.settleLater(reservation, actualTokens, actualSpend);
    }
  }

  /** A call that charges no spend goes through {@link #reserveAll(List, long, long)}. */
  @Override
  public JointDecision reserveAll(List<Charge> charges, long requests, long tokens, long spend) {
    return spend == 0 ? reserveAll(charges, requests, tokens)
        : delegate.reserveAll(charges, requests, tokens, spend);
  }

  @Override
  public void settleAllLater(JointDecision decision, long actualTokens, long actualSpend) {
    delegate.settleAllLater(decision, actualTokens, actualSpend);
  }

  @Override
  public JointDecision reserveAll(List<Charge> charges, long requests, long tokens) {
    return delegate.reserveAll(charges, requests, tokens);
  }

  @Override
  public void settleAll(JointDecision decision, long actualTokens) {
    delegate.settleAll(decision, actualTokens);
  }

  @Override
  public void settleAllLater(JointDecision decision, long actualTokens) {
    delegate.settleAllLater(decision, actualTokens);
  }

  @Override
  public void releaseAll(JointDecision decision) {
    delegate.releaseAll(decision);
  }

  @Override
  public void close() {
    delegate.close();
  }
}
